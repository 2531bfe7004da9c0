/**
 * environment/Dockerfile of an exported task: a public base with what the task's checks, its
 * reference solution and its files need (Python and pytest, Node), the task's files as the
 * starting /workspace, and its setup commands. Each install is skipped when the base has the tool
 * already, so the same Dockerfile builds offline on agent-bench's sandbox image
 * (`validate --base-image`), which has python3, pytest and node but no network.
 */

/** What the task's commands and checks run. */
export interface Needs {
  python: boolean;
  node: boolean;
}

/** Pinned, as Harbor's task checker asks of a verifier's dependencies. */
const PYTEST = 'pytest==8.3.4';

/** The folder under environment/ that holds the starting workspace. */
export const WORKSPACE_CONTEXT = 'workspace';

/** A guess from the text of commands and the names of files, which is all an export has. */
export function needsOf(commands: readonly string[], fileNames: readonly string[]): Needs {
  const text = commands.join('\n');
  return {
    python: /\b(python3?|pytest)\b/.test(text) || fileNames.some((f) => f.endsWith('.py')),
    node: /\b(node|npx|npm)\b/.test(text) || fileNames.some((f) => /\.(m?js|cjs|ts)$/.test(f)),
  };
}

export function exportedDockerfile(o: {
  taskId: string;
  needs: Needs;
  hasFiles: boolean;
  setupCommands: readonly string[];
}): string {
  const { python, node } = o.needs;
  const base =
    python && !node ? 'python:3.12-slim' : node && !python ? 'node:20-slim' : 'debian:bookworm-slim';
  const installs: string[] = [];
  if (python && base === 'python:3.12-slim')
    installs.push(`RUN python3 -m pytest --version >/dev/null 2>&1 || pip install --no-cache-dir ${PYTEST}`);
  const apt = [
    ...(python && base !== 'python:3.12-slim'
      ? [['python3 -m pytest --version', 'python3 python3-pytest']]
      : []),
    ...(node && base !== 'node:20-slim' ? [['node --version', 'nodejs']] : []),
  ];
  for (const [probe, packages] of apt)
    installs.push(
      `RUN ${probe} >/dev/null 2>&1 || (apt-get update && apt-get install -y --no-install-recommends ${packages} && rm -rf /var/lib/apt/lists/*)`,
    );
  return [
    `# agent-bench task ${o.taskId}, exported by \`agent-bench task export --format harbor\`.`,
    '# Offline, `agent-bench validate --base-image <agent-bench sandbox image>` builds it with no install:',
    '# every install below is skipped when the base has the tool.',
    `FROM ${base}`,
    ...installs,
    'WORKDIR /workspace',
    ...(o.hasFiles ? [`COPY ${WORKSPACE_CONTEXT}/ /workspace/`] : []),
    ...o.setupCommands.map((c) => `RUN ${JSON.stringify(['bash', '-c', c])}`),
    '',
  ].join('\n');
}
