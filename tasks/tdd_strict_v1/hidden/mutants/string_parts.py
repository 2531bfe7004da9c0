# Mutant: parts compared as text, so "1.10" sorts before "1.9".
def compare_versions(a, b):
    def parts(version):
        pieces = version.split(".")
        if not all(p.isascii() and p.isdigit() for p in pieces):
            raise ValueError(f"not a version: {version!r}")
        return pieces

    left, right = parts(a), parts(b)
    width = max(len(left), len(right))
    left += ["0"] * (width - len(left))
    right += ["0"] * (width - len(right))
    return (left > right) - (left < right)
