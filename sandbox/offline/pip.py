"""Offline pip for the sandbox, installed as the `pip` module (so `python3 -m pip` answers too) and
run by /usr/local/bin/pip and pip3 (and, with the image's python, by the offline `uv pip install`
of sandbox/verifier-bin/uv). Nothing can be downloaded: `install` succeeds, saying so, when every
requirement is already installed (a Dockerfile's `RUN pip install pytest` on the sandbox image) and
otherwise fails at once naming what is missing; other commands that need the network say so in one
line and exit 1. What needs no network is answered from the installed distributions: list,
freeze, show.
"""
import os
import sys
from importlib import metadata

OFFLINE = "the network is off in this sandbox, so packages cannot be installed or downloaded"


def prog():
    name = os.path.basename(sys.argv[0])
    return "pip" if name in ("__main__.py", "pip.py", "-m", "-c", "") else name


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
    if command == "install":
        return install(argv[argv.index("install") + 1:])
    print(f"{prog()}: {OFFLINE}; use what is installed (`{prog()} list` shows it)", file=sys.stderr)
    return 1


# `pip install` options that take a value (the others are flags).
INSTALL_VALUE_OPTIONS = {
    "-r", "--requirement", "-c", "--constraint", "-i", "--index-url", "--extra-index-url",
    "-f", "--find-links", "-t", "--target", "--prefix", "--root", "--python-version", "--platform",
    "--implementation", "--abi", "--no-binary", "--only-binary", "--progress-bar", "--trusted-host",
    "--cache-dir", "--log", "--timeout", "--retries", "--src", "--upgrade-strategy",
    "--config-settings", "-C", "--global-option", "--python", "--report", "--root-user-action",
}


def install_requests(args):
    """The requirements `pip install ARGS` asks for (requirement files read), or an error message."""
    wanted = []
    i = 0
    while i < len(args):
        a = args[i]
        value = None
        if a.startswith("--") and "=" in a:
            a, value = a.split("=", 1)
        elif a in INSTALL_VALUE_OPTIONS:
            value = args[i + 1] if i + 1 < len(args) else ""
            i += 1
        elif a[:2] in ("-r", "-c") and len(a) > 2:
            a, value = a[:2], a[2:]
        if a in ("-r", "--requirement"):
            try:
                with open(value) as f:
                    lines = [ln.split(" #")[0].strip() for ln in f]
            except OSError as e:
                return None, f"cannot read requirements file {value}: {e.strerror}"
            sub, err = install_requests([w for ln in lines if ln and not ln.startswith("#") for w in ln.split()])
            if err:
                return None, err
            wanted += sub
        elif a in ("-e", "--editable"):
            return None, "an editable install needs a build"
        elif not a.startswith("-"):
            wanted.append(a)
        i += 1
    return wanted, None


def satisfied(requirement):
    """Whether an installed distribution meets `requirement` (name, extras ignored, version specifiers)."""
    try:
        from packaging.requirements import InvalidRequirement, Requirement
    except ImportError:
        Requirement = None
    if Requirement is not None:
        try:
            req = Requirement(requirement)
        except InvalidRequirement:
            return False  # a path, a URL, a wheel file: only a download or a build makes it
        try:
            version = metadata.version(req.name)
        except metadata.PackageNotFoundError:
            return False
        return req.specifier.contains(version, prereleases=True)
    name, _, pinned = requirement.partition("==")
    try:
        return pinned == "" or metadata.version(name.split("[")[0].strip()) == pinned.strip()
    except metadata.PackageNotFoundError:
        return False


def install(args):
    """Succeeds, saying so, when every requirement is installed already; fails naming the others."""
    wanted, err = install_requests(args)
    if err:
        print(f"{prog()}: {OFFLINE}: {err}", file=sys.stderr)
        return 1
    if not wanted:
        print(f"{prog()}: nothing to install (no requirements given)", file=sys.stderr)
        return 1
    missing = [r for r in wanted if not satisfied(r)]
    if missing:
        print(f"{prog()}: {OFFLINE}; not installed here: {', '.join(missing)} (`{prog()} list` shows what is)", file=sys.stderr)
        return 1
    print(f"{prog()}: already installed, nothing to do ({OFFLINE.split(',')[0]}): {', '.join(wanted)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
