# Mutant: every separating character becomes a hyphen of its own; runs are not collapsed.
def slugify(text):
    import re

    return re.sub(r"[^a-z0-9]", "-", text.lower()).strip("-")
