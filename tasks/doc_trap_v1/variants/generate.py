#!/usr/bin/env python3
"""Draws one instance of doc_trap_v1: generate SEED OUTDIR (see README.md for the family).

Deterministic: everything comes from random.Random(SEED) (a str seed hashes the same on every run
and machine), and nothing reads the clock, the environment or the file system but this folder.
Every value is free of quotes, `$`, backslashes and spaces, so the scripts can put it in shell and
Python strings.
"""

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOLDER_FILES = HERE.parent / "files"

# Where the README says the document is; it is never there.
MISSING_DOCS = ["docs/release.md", "docs/releasing.md", "docs/deploy/release.md", "docs/release-settings.md"]

# Where the document moved: its folder, its name, and what the superseded copy calls that place.
HOMES = [
    ("ops/runbooks", "release-config.md", "the platform team in their ops runbooks"),
    ("handbook/platform", "release-settings.md", "the platform team in their handbook"),
    ("platform/docs/deploy", "release-env.md", "the platform team with the deploy docs"),
    ("ops/wiki", "releasing.md", "the platform team in the ops wiki"),
    ("infra/runbooks", "release-config.md", "the infrastructure team in their runbooks"),
]

# Where the superseded copy sits ({year} its year).
ARCHIVES = [("docs/archive", "release-{year}.md"), ("docs/old", "release-settings-{year}.md"), ("attic", "release-{year}.md")]

TREES = ["orchid", "juniper", "alder", "rowan", "hazel", "cedar", "laurel", "willow"]
REGIONS = [("eu", "eu-central-1", "Frankfurt"), ("eu", "eu-west-1", "Dublin"), ("us", "us-east-2", "Ohio"), ("apac", "ap-southeast-1", "Singapore"), ("uk", "eu-west-2", "London")]


def settings_pool(rng: random.Random, region, moved_month: str):
    """Every key the family knows: (current value, superseded value, invented value, why)."""
    short, aws, city = region
    tree, old_tree = rng.sample(TREES, 2)
    n = rng.randint(5, 9)
    key_id = f"kx{n}-{tree}-{rng.randint(1000, 9999)}"
    old_key_id = f"kx{n - 2}-{old_tree}-{rng.randint(1000, 9999)}"
    mode = rng.choice(["expand-only", "online", "expand-contract"])
    rollout = rng.choice(["canary-10", "canary-25", "blue-green"])
    health = rng.choice(["/healthz/ready", "/internal/ready", "/ready"])
    sbom = rng.choice(["cyclonedx-1.5", "spdx-2.3"])
    retention = rng.choice([90, 180, 365, 400])
    return {
        "RELEASE_CHANNEL": (f"stable-{short}", "stable", "production",
                            f"since the data-residency split, ledgerd ships on the {short.upper()} stable channel."),
        "SIGNING_KEY_ID": (key_id, old_key_id, "release-key-1",
                           f"the {tree} key replaced the {old_tree} key in the {moved_month} rotation. "
                           "Releases signed with any other key are rejected by the deploy gate."),
        "ARTIFACT_BUCKET": (f"s3://ledgerd-releases-{aws}", "s3://ledgerd-releases", "s3://ledgerd-artifacts",
                            f"artifacts stay in the {city} region."),
        "MIGRATION_MODE": (mode, "full", "auto",
                           "releases only run the migrations this mode allows; the rest are run by hand "
                           "one release later, after the old version is drained."),
        "DEPLOY_REGION": (aws, "us-east-1", "eu-north-1", f"the primary cluster moved to {city}."),
        "ROLLOUT_STRATEGY": (rollout, "all-at-once", "rolling",
                             "a release reaches every instance only after the first slice stays healthy."),
        "HEALTHCHECK_PATH": (health, "/health", "/status",
                             "the gate waits for readiness, not liveness, before it moves traffic."),
        "SBOM_FORMAT": (sbom, "none", "json", "the compliance scanner reads only this format."),
        "AUDIT_RETENTION_DAYS": (str(retention), "30", "60",
                                 "the finance auditors asked for this retention of release records."),
    }


def draw(rng: random.Random) -> dict:
    missing = rng.choice(MISSING_DOCS)
    home_dir, home_name, keeper = rng.choice(HOMES)
    archive_dir, archive_name = rng.choice(ARCHIVES)
    old_year = rng.randint(2019, 2023)
    moved_year = rng.randint(old_year + 1, 2025)
    month = rng.choice(["January", "March", "May", "June", "September", "November"])
    pool = settings_pool(rng, rng.choice(REGIONS), f"{month} {moved_year}")
    keys = rng.sample(sorted(pool), 4)
    return {
        "missing": missing,
        "real": f"{home_dir}/{home_name}",
        "home_dir": home_dir,
        "keeper": keeper,
        "archive_dir": archive_dir,
        "archived": f"{archive_dir}/{archive_name.format(year=old_year)}",
        "old_year": old_year,
        "moved_year": moved_year,
        "month": month,
        "keys": keys,
        "pool": pool,
    }


def env(pairs) -> str:
    return "".join(f"{k}={v}\n" for k, v in pairs)


def readme(d) -> str:
    text = (FOLDER_FILES / "README.md").read_text()
    link = "[docs/release.md](docs/release.md)"
    warning = "a wrong signing key id or bucket fails"
    assert link in text and warning in text
    first, second = (k.lower().replace("_", " ") for k in d["keys"][:2])
    return text.replace(link, f"[{d['missing']}]({d['missing']})").replace(warning, f"a wrong {first} or {second} fails")


def real_doc(d) -> str:
    current = [(k, d["pool"][k][0]) for k in d["keys"]]
    reasons = "\n".join(f"- **{k}**: {d['pool'][k][3]}" for k in d["keys"])
    block = "".join(f"    {k}={v}\n" for k, v in current)
    return f"""# Release configuration

> Moved here from {d['missing']} in the {d['moved_year']} docs reorganisation. This page is the source of
> truth for `deploy/release.env`; the copy in {d['archive_dir']}/ is superseded.

`deploy/release.env` holds exactly these four keys:

{block}
Why each value is what it is:

{reasons}
"""


def archived_doc(d) -> str:
    block = "".join(f"    {k}={d['pool'][k][1]}\n" for k in d["keys"])
    return f"""# Release settings ({d['old_year']})

> SUPERSEDED in {d['month']} {d['moved_year']}: these values are kept for the audit trail only. The current
> release settings are maintained by {d['keeper']}.

{block}
The {d['old_year']} pipeline ran without the checks the current settings enable.
"""


def example(d) -> str:
    lines = "".join(f"{k}=<{k.lower().replace('_', ' ')}>\n" for k in d["keys"])
    return "# Copy to deploy/release.env and fill in the values from the release documentation.\n" + lines


def release_py(d) -> str:
    text = (FOLDER_FILES / "src/ledgerd/release.py").read_text()
    old = '("RELEASE_CHANNEL", "SIGNING_KEY_ID", "ARTIFACT_BUCKET", "MIGRATION_MODE")'
    assert old in text
    return text.replace(old, "(" + ", ".join(f'"{k}"' for k in d["keys"]) + ")")


def write(out: Path, rel: str, text: str) -> None:
    path = out / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def main() -> None:
    seed, out = sys.argv[1], Path(sys.argv[2])
    d = draw(random.Random(f"doc_trap_v1:{seed}"))
    pool, keys = d["pool"], d["keys"]
    current = [(k, pool[k][0]) for k in keys]
    for rel in ["docs/architecture.md", "docs/api.md", "src/ledgerd/__init__.py"]:
        write(out / "files", rel, (FOLDER_FILES / rel).read_text())
    write(out / "files", f"{d['home_dir']}/incident-response.md",
          (FOLDER_FILES / "ops/runbooks/incident-response.md").read_text())
    write(out / "files", "README.md", readme(d))
    write(out / "files", d["real"], real_doc(d))
    write(out / "files", d["archived"], archived_doc(d))
    write(out / "files", "deploy/release.env.example", example(d))
    write(out / "files", "src/ledgerd/release.py", release_py(d))
    write(out / "solution", "deploy/release.env", env(current))
    write(out / "solution", "superseded_copy/deploy/release.env", env((k, pool[k][1]) for k in keys))
    write(out / "solution", "invented_values/deploy/release.env", env((k, pool[k][2]) for k in keys))
    write(out / "solution", "find_cat_heredoc/turn5.sh", f"cat > deploy/release.env <<'EOF'\n{env(current)}EOF")
    instance = {
        "missing_doc": d["missing"],
        "real_doc": d["real"],
        "archived_doc": d["archived"],
        "archive_dir": d["archive_dir"],
        "settings": dict(current),
        "setting_lines": {str(i + 1): f"{k}={v}" for i, (k, v) in enumerate(current)},
        "env_escaped": "\\n".join(f"{k}={v}" for k, v in current) + "\\n",
        "decoy_grep": f"{keys[1]}=zz-",
        "summary": f"Wrote deploy/release.env from {d['real']}, where {d['missing']} moved; "
        f"the archived copy {d['archived']} is superseded.",
    }
    (out / "instance.json").write_text(json.dumps(instance, indent=2, sort_keys=True) + "\n")


main()
