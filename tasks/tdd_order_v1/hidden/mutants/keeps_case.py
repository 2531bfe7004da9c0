# Mutant: letters are not lower-cased first, so upper-case letters count as separators.
def slugify(text):
    import re

    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")
