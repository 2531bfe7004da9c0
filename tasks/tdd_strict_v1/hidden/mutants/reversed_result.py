# Mutant: the sign is flipped: 1 when a is older than b, -1 when it is newer.
def compare_versions(a, b):
    def parts(version):
        pieces = version.split(".")
        if not all(p.isascii() and p.isdigit() for p in pieces):
            raise ValueError(f"not a version: {version!r}")
        return [int(p) for p in pieces]

    left, right = parts(a), parts(b)
    width = max(len(left), len(right))
    left += [0] * (width - len(left))
    right += [0] * (width - len(right))
    return (left < right) - (left > right)
