# Mutant: hyphens at the start and the end are kept.
def slugify(text):
    import re

    return re.sub(r"[^a-z0-9]+", "-", text.lower())
