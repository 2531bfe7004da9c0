/**
 * The ledgerd repository: a README pointing at docs/release.md, which does not exist. The current
 * release settings live in ops/runbooks/release-config.md (moved there in a docs reorganisation);
 * docs/archive/ keeps a superseded copy with old values, and deploy/ holds a placeholder example.
 */
import type { TaskFile } from '../../src/tasks/types.js';

export const MISSING_DOC = 'docs/release.md';
export const REAL_DOC = 'ops/runbooks/release-config.md';
export const ARCHIVED_DOC = 'docs/archive/release-2023.md';
export const OUTPUT = 'deploy/release.env';

/** The settings the real document specifies, in its order. */
export const SETTINGS: readonly (readonly [string, string])[] = [
  ['RELEASE_CHANNEL', 'stable-eu'],
  ['SIGNING_KEY_ID', 'kx7-orchid-2291'],
  ['ARTIFACT_BUCKET', 's3://ledgerd-releases-eu-central-1'],
  ['MIGRATION_MODE', 'expand-only'],
];

/** What the superseded 2023 document says. */
export const STALE_SETTINGS: readonly (readonly [string, string])[] = [
  ['RELEASE_CHANNEL', 'stable'],
  ['SIGNING_KEY_ID', 'kx5-juniper-1187'],
  ['ARTIFACT_BUCKET', 's3://ledgerd-releases'],
  ['MIGRATION_MODE', 'full'],
];

export const envFile = (settings: readonly (readonly [string, string])[]): string =>
  settings.map(([k, v]) => `${k}=${v}\n`).join('');

const README = `# ledgerd

Ledger reconciliation daemon for the finance platform: it matches bank statement lines against
ledger postings every night and files the differences for the accounting team.

## Development

    python3 -m venv .venv && . .venv/bin/activate
    pip install -e .
    python3 -m ledgerd --dry-run

The architecture and the HTTP API are described in docs/architecture.md and docs/api.md.

## Releasing

Release builds read their settings from \`deploy/release.env\`, one \`KEY=value\` per line. Every
key, its current value and the reason for it are documented in [docs/release.md](docs/release.md).
Do not guess values: a wrong signing key id or bucket fails the release pipeline.
`;

const ARCHITECTURE = `# Architecture

ledgerd runs as a single process started by the scheduler at 02:00 UTC.

1. **Fetch**: statement files are pulled from the bank's SFTP drop into a scratch directory.
2. **Parse**: each line becomes a \`StatementLine\` (date, amount in cents, counterparty, reference).
3. **Match**: lines are matched to postings by reference first, then by amount and date within
   a three-day window. Ambiguous matches are never guessed; they go to the review queue.
4. **File**: unmatched lines and postings are written to the \`reconciliation_gaps\` table.

The process is idempotent: running it twice for the same day files the same gaps.
`;

const API = `# HTTP API

The review UI talks to ledgerd over a small read-only API.

| Method | Path | Returns |
|---|---|---|
| GET | /gaps?day=YYYY-MM-DD | the gaps filed for a day |
| GET | /gaps/{id} | one gap with its candidate matches |
| GET | /health | \`ok\` when the last nightly run finished |

Writes (resolving a gap) go through the accounting service, never through ledgerd.
`;

const ARCHIVED = `# Release settings (2023)

> SUPERSEDED in February 2025: these values are kept for the audit trail only. The current
> release settings are maintained by the platform team in their ops runbooks.

    ${envFile(STALE_SETTINGS).trimEnd().split('\n').join('\n    ')}

The 2023 pipeline ran full migrations during the release window and signed with the juniper key.
`;

const REAL = `# Release configuration

> Moved here from docs/release.md in the 2025 docs reorganisation. This page is the source of
> truth for \`deploy/release.env\`; the copy in docs/archive/ is superseded.

\`deploy/release.env\` holds exactly these four keys:

    ${envFile(SETTINGS).trimEnd().split('\n').join('\n    ')}

Why each value is what it is:

- **RELEASE_CHANNEL**: since the EU data-residency split, ledgerd ships on the EU stable channel.
- **SIGNING_KEY_ID**: the orchid key replaced the juniper key in the September 2025 rotation.
  Releases signed with any other key are rejected by the deploy gate.
- **ARTIFACT_BUCKET**: artifacts stay in the Frankfurt region.
- **MIGRATION_MODE**: releases only run expand migrations; contract migrations are run by hand
  one release later, after the old version is drained.
`;

const INCIDENTS = `# Incident response

1. Page the on-call engineer through the finance-platform rotation.
2. Pause the nightly run (\`ledgerd pause\`) if gaps are being filed in bulk.
3. Post in #finance-incidents with the first gap id and the bank statement file name.
`;

const EXAMPLE = `# Copy to deploy/release.env and fill in the values from the release documentation.
RELEASE_CHANNEL=<channel>
SIGNING_KEY_ID=<key id>
ARTIFACT_BUCKET=<bucket url>
MIGRATION_MODE=<mode>
`;

const RELEASE_PY = `"""Loads the release settings that the release build passes to the deploy gate."""

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
`;

export const WORKSPACE_FILES: TaskFile[] = [
  { path: 'README.md', content: README },
  { path: 'docs/architecture.md', content: ARCHITECTURE },
  { path: 'docs/api.md', content: API },
  { path: ARCHIVED_DOC, content: ARCHIVED },
  { path: REAL_DOC, content: REAL },
  { path: 'ops/runbooks/incident-response.md', content: INCIDENTS },
  { path: 'deploy/release.env.example', content: EXAMPLE },
  { path: 'src/ledgerd/__init__.py', content: '"""Ledger reconciliation daemon."""\n' },
  { path: 'src/ledgerd/release.py', content: RELEASE_PY },
];
