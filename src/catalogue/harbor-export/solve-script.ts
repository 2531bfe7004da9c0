/**
 * solution/solve.sh of an exported task: the task's reference solution (its scripted tool calls)
 * replayed as a shell script, which is what Harbor's oracle runs. Each execute_command runs in
 * bash where the previous one left its directory (the agent's shell keeps it between calls), its
 * exit code ignored as an agent goes on after a failing command; each write_file copies the file's
 * exact text, kept under solution/files/ (Harbor puts the whole solution/ at /solution); read_file
 * changes nothing and is skipped. Any other tool cannot be replayed by a script: the task is refused.
 */
import { posix } from 'node:path';
import { shellQuote } from '../../manifest/shell-quote.js';
import type { ScriptedTurn } from '../../models/scripted.js';
import { UsageError } from '../../util/errors.js';

const WORKSPACE = '/workspace';

export interface SolveScript {
  script: string;
  /** Files under solution/ that the script copies from /solution, by their path under solution/. */
  files: Map<string, string>;
}

const PRELUDE = `cwd=${WORKSPACE}
# One execute_command: bash in the directory the previous one left, which is kept for the next.
run() {
  local next
  next=$(cd "$cwd" && bash -c "$1"$'\\npwd >&3' 3>&1 1>&2)
  if [ -n "$next" ]; then cwd=$next; fi
  return 0
}
# One write_file: the whole file replaced (an existing one keeps its mode), its parent folders made;
# a relative path is the shell's directory's, as the tool resolves it.
put() {
  local dest=$2
  case $dest in /*) ;; *) dest=$cwd/$dest ;; esac
  mkdir -p "$(dirname "$dest")" && cp "$1" "$dest"
}
`;

export function solveScript(taskId: string, turns: readonly ScriptedTurn[]): SolveScript {
  const files = new Map<string, string>();
  const steps: string[] = [];
  for (const call of turns.flatMap((t) => t.calls)) {
    const args = call.arguments;
    if (call.name === 'execute_command' && typeof args.command === 'string')
      steps.push(`run ${shellQuote(args.command)}`);
    else if (
      call.name === 'write_file' &&
      typeof args.path === 'string' &&
      typeof args.content === 'string'
    ) {
      const name = `files/${String(files.size + 1).padStart(2, '0')}-${posix.basename(args.path).replace(/[^A-Za-z0-9._-]/g, '_') || 'file'}`;
      files.set(name, args.content);
      steps.push(`put ${shellQuote(`/solution/${name}`)} ${shellQuote(args.path)}`);
    } else if (call.name !== 'read_file')
      throw new UsageError(
        `${taskId}: its reference solution calls ${call.name}, which a Harbor solve.sh cannot replay (only execute_command, write_file and read_file)`,
      );
  }
  const script = [
    '#!/bin/bash',
    `# agent-bench task ${taskId}: its reference solution's tool calls, replayed in order.`,
    PRELUDE,
    ...steps,
    '',
  ].join('\n');
  return { script, files };
}
