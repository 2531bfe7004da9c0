"""Loads the release settings that the release build passes to the deploy gate."""

from pathlib import Path

REQUIRED = ("RELEASE_CHANNEL", "SIGNING_KEY_ID", "ARTIFACT_BUCKET", "MIGRATION_MODE")


def load(path: str = "deploy/release.env") -> dict[str, str]:
    settings = {}
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings[key.strip()] = value.strip()
    missing = [key for key in REQUIRED if key not in settings]
    if missing:
        raise ValueError(f"missing release settings: {', '.join(missing)}")
    return settings
