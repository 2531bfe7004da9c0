# Mutant: nothing is rejected; a part that is not digits counts as 0.
def compare_versions(a, b):
    def parts(version):
        return [int(p) if p.isascii() and p.isdigit() else 0 for p in version.split(".")]

    left, right = parts(a), parts(b)
    width = max(len(left), len(right))
    left += [0] * (width - len(left))
    right += [0] * (width - len(right))
    return (left > right) - (left < right)
