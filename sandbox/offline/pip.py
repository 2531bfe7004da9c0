"""Offline pip for the sandbox, installed as the `pip` module (so `python3 -m pip` answers too) and
run by /usr/local/bin/pip and pip3. Nothing can be downloaded: install and friends say so in one
line and exit 1 at once. What needs no network is answered from the installed distributions:
list, freeze, show.
"""
import os
import sys
from importlib import metadata

OFFLINE = "the network is off in this sandbox, so packages cannot be installed or downloaded"


def prog():
    name = os.path.basename(sys.argv[0])
    return "pip" if name in ("__main__.py", "-m", "-c", "") else name


def distributions():
    seen = {}
    for d in metadata.distributions():
        name = d.metadata["Name"]
        if name and name.lower() not in seen:
            seen[name.lower()] = d
    return [seen[k] for k in sorted(seen)]


def main(argv):
    args = [a for a in argv if not a.startswith("-")]
    if "--version" in argv or "-V" in argv:
        print(f"{prog()} (agent-bench offline stub, python {sys.version.split()[0]}): {OFFLINE}")
        return 0
    command = args[0] if args else "help"
    if command == "list":
        rows = [(d.metadata["Name"], d.version) for d in distributions()]
        width = max([len("Package")] + [len(n) for n, _ in rows])
        print(f"{'Package'.ljust(width)} Version\n{'-' * width} -------")
        for name, version in rows:
            print(f"{name.ljust(width)} {version}")
        return 0
    if command == "freeze":
        for d in distributions():
            print(f"{d.metadata['Name']}=={d.version}")
        return 0
    if command == "show":
        wanted = {a.lower() for a in args[1:]}
        found = [d for d in distributions() if d.metadata["Name"].lower() in wanted]
        for i, d in enumerate(found):
            if i:
                print("---")
            print(f"Name: {d.metadata['Name']}\nVersion: {d.version}\nSummary: {d.metadata['Summary'] or ''}")
        missing = sorted(wanted - {d.metadata["Name"].lower() for d in found})
        if missing:
            print(f"WARNING: Package(s) not found: {', '.join(missing)}", file=sys.stderr)
            return 1
        return 0
    print(f"{prog()}: {OFFLINE}; use what is installed (`{prog()} list` shows it)", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
