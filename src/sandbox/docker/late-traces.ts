/**
 * The traces of background jobs followed past their command (sandbox/report/exec_report.py,
 * follow_survivors): once the agent's processes are killed their tracers end, and each kept file
 * holds its command's whole trace, from its start to its jobs' end. Read once, then removed: the
 * host dates a change by the process that wrote it (src/scoring/ordering.ts), so a job that only
 * watched moves no date.
 */
import { InfraError } from '../../util/errors.js';
import { TOOLS_ENV, tool } from '../tools.js';
import { parseTrace } from '../trace/parse.js';
import type { ExecTrace } from '../types.js';
import type { RawRunner } from './raw-runner.js';
import { getFiles } from './transfer.js';
import { TRACE_CAP_BYTES } from './wrapper.js';

/**
 * Waits (3 s at most) for the tracers of the kept traces to end with their last tracee, stops any
 * left, and names the files. Builtins only while it scans, like the kills (processes.ts).
 */
const LIST_SCRIPT = `shopt -s nullglob
files=(/run/agent-bench/late.*)
[ \${#files[@]} -eq 0 ] && exit 0
tracers() {
  found=()
  for p in /proc/[0-9]*; do
    read -r comm <"$p/comm" 2>/dev/null || continue
    [ "$comm" = strace ] && found+=("\${p#/proc/}")
  done
}
for ((i = 0; i < 60; i++)); do
  tracers
  [ \${#found[@]} -eq 0 ] && break
  sleep 0.05
done
[ \${#found[@]} -gt 0 ] && kill -TERM "\${found[@]}" 2>/dev/null && sleep 0.2
printf '%s\\0' "\${files[@]}"
`;

export async function lateTraces(run: RawRunner): Promise<ExecTrace[]> {
  const listed = await run({
    argv: [tool('bash'), '-c', LIST_SCRIPT],
    user: 'root',
    env: TOOLS_ENV,
    maxStdoutBytes: 1 << 20,
    maxStderrBytes: 16 * 1024,
    deadlineMs: 30_000,
  });
  if (listed.exitCode !== 0)
    throw new InfraError(
      `listing the followed traces failed: ${listed.stderr.toString('utf8').trim().slice(0, 300)}`,
    );
  const files = listed.stdout
    .toString('utf8')
    .split('\0')
    .filter((f) => f !== '');
  if (files.length === 0) return [];
  const bytes = await getFiles(run, files);
  await run({
    argv: [
      tool('python3'),
      '-I',
      '-S',
      '-c',
      'import os, sys\nfor f in sys.argv[1:]: os.unlink(f)',
      ...files,
    ],
    user: 'root',
    env: TOOLS_ENV,
    maxStdoutBytes: 4096,
    maxStderrBytes: 4096,
    deadlineMs: 30_000,
  });
  return files.flatMap((f) => {
    const trace = bytes.get(f);
    if (trace === undefined) return [];
    // As the command's own trace was parsed (exec.ts): from /, past the wrapper's own programs.
    const processes = parseTrace(trace.toString('latin1'), { initialCwd: '/', harnessExecs: 2 });
    return [{ processes, truncated: trace.length >= TRACE_CAP_BYTES }];
  });
}
