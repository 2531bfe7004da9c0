/**
 * Which file a program's standard input gave it, from the start and to it alone (ProgramRun.stdin):
 * what lets `bash < x.sh`, `sh -s < x.sh` and `cat x.sh | bash` count as running x.sh. The trace
 * shows every read and seek of an open file, so the claim holds only when it can be proved:
 *
 * - fd 0 open on the file: every read or seek of that open file (shared by dup and fork) is the
 *   program's own, so it starts at the file's beginning and nobody else takes part of it
 *   (`( read l; exec bash ) < x.sh` and `{ head -1; bash; } < x.sh` fail);
 * - fd 0 a pipe: only the program read it, to its end (so every writer had closed it), and the
 *   bytes it read are exactly those that a `cat FILE` writing into that pipe read from FILE, to its
 *   end. Anything else written into the pipe (`{ echo exit; cat x.sh; } | bash`) would have been
 *   read too and broken the count; another filter (`sed`, `head`, `tr`) is no copy.
 *
 * `bash /dev/stdin < x.sh` is fd 0 on the file, opened again by name (from its start): the same
 * claim (program-runs.ts names the file). Known gaps, left uncounted rather than guessed: an open
 * file passed over a socket, `bash <(cat x.sh)` (a pipe on another descriptor), and `source x.sh`,
 * whose reading looks exactly like `history -r x.sh` in the trace.
 */
import { posix } from 'node:path';
import type { FileUse, OpenFile } from './descriptors.js';

/** What stdinFile needs of the parser's per-process state (processes.ts). */
export interface StdinSource {
  runs: readonly {
    run: { exe: string | null; argv: string[] | null; cwd: string | null };
    stdin: OpenFile | null;
    stdout: OpenFile | null;
  }[];
  opened: readonly { file: OpenFile; phase: number }[];
}

/** The file run `index` of `proc` had on its standard input, as described above, or null. */
export function stdinFile(proc: StdinSource, index: number, all: readonly StdinSource[]): string | null {
  const input = proc.runs[index]?.stdin ?? null;
  if (input === null || !input.readable) return null;
  const own = (u: FileUse): boolean => u.by === proc && u.phase === index + 1;
  if (!input.uses.every(own)) return null;
  if (input.path !== null) return input.path;
  if (input.pipe?.end !== 'read') return null;
  const read = readToEnd(input.uses);
  if (read === null) return null;
  const pipe = input.pipe.id;
  for (const writer of all)
    for (const [j, r] of writer.runs.entries()) {
      if (r.stdout?.pipe?.id !== pipe || r.stdout.pipe.end !== 'write') continue;
      const copied = catCopy(writer, j);
      if (copied !== null && copied.bytes === read) return copied.path;
    }
  return null;
}

/** Total bytes of uses that reached the end of the input; null when they did not, or are not all reads. */
function readToEnd(uses: readonly FileUse[]): number | null {
  let total = 0;
  for (const u of uses) {
    if (u.bytes === null) return null;
    total += u.bytes;
  }
  return uses.some((u) => u.bytes === 0) ? total : null;
}

/** The image's `cat FILE` (nothing else on its line), with how much of FILE it read, to its end. */
function catCopy(proc: StdinSource, index: number): { path: string; bytes: number } | null {
  const { exe, argv, cwd } = proc.runs[index]?.run ?? { exe: null, argv: null, cwd: null };
  if (exe === null || !/^\/(usr\/)?bin\/cat$/.test(exe) || argv === null || cwd === null) return null;
  const operands = argv[1] === '--' ? argv.slice(2) : argv.slice(1);
  const operand = operands[0];
  if (operands.length !== 1 || operand === undefined || (operand.startsWith('-') && argv[1] !== '--'))
    return null;
  const path = posix.resolve(cwd, operand);
  const files = proc.opened.filter((o) => o.phase === index + 1 && o.file.path === path);
  const file = files[0]?.file;
  if (files.length !== 1 || file === undefined || !file.readable) return null;
  if (!file.uses.every((u) => u.by === proc && u.phase === index + 1)) return null;
  const bytes = readToEnd(file.uses);
  return bytes === null ? null : { path, bytes };
}
