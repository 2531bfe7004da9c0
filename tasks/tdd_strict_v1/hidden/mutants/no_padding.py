# Mutant: a missing part is not counted as 0, so "1.2" is older than "1.2.0".
def compare_versions(a, b):
    def parts(version):
        pieces = version.split(".")
        if not all(p.isascii() and p.isdigit() for p in pieces):
            raise ValueError(f"not a version: {version!r}")
        return [int(p) for p in pieces]

    left, right = parts(a), parts(b)
    return (left > right) - (left < right)
