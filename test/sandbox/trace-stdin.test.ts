/**
 * Which file a program's standard input gave it whole (ProgramRun.stdin), on real traces: the host's
 * strace with the sandbox wrapper's own options, parsed by the sandbox's parser. A script fed to a
 * shell on its input counts; one that something else read from first, or that reached the shell
 * through anything but a plain `cat FILE`, does not.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processLogs } from '../../src/agent/tools/process-log.js';
import { parseTrace } from '../../src/sandbox/trace/parse.js';
import type { ProcessRecord, ProgramRun } from '../../src/sandbox/trace/records.js';
import { wrapperTraceOptions } from './trace-options.js';

const hasStrace = spawnSync('strace', ['-V'], { stdio: 'ignore' }).status === 0;
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'trace-stdin-'));
  writeFileSync(join(dir, 'x.sh'), 'echo from-x\necho more\n');
  writeFileSync(join(dir, 'y.sh'), 'echo from-y\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every program the traced command ran, with the file its standard input gave it. */
function runsOf(command: string): { runs: ProgramRun[]; stdout: string; records: ProcessRecord[] } {
  const out = join(dir, 'trace');
  const r = spawnSync(
    'strace',
    [
      '-f',
      '-q',
      '-s',
      '4096',
      '-o',
      out,
      '-e',
      'signal=!SIGCHLD',
      ...wrapperTraceOptions(),
      'bash',
      '-c',
      command,
    ],
    // A clean environment: another test of this worker may have put shims (shell scripts) on PATH.
    { cwd: dir, encoding: 'utf8', timeout: 20_000, env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' } },
  );
  const records = parseTrace(readFileSync(out, 'latin1'), { initialCwd: dir, harnessExecs: 0 });
  return { runs: records.flatMap((p) => p.runs), stdout: r.stdout, records };
}

/** The stdin files of the runs of a shell reading its program from standard input. */
function shellInputs(command: string): (string | null)[] {
  const { runs } = runsOf(command);
  return runs
    .filter(
      (r) => /(^|\/)(bash|sh|dash)$/.test(r.exe ?? '') && !(r.argv ?? []).some((a) => a.startsWith('-c')),
    )
    .map((r) => r.stdin);
}

describe.skipIf(!hasStrace)('a program’s standard input, from the trace', () => {
  it.each([
    ['bash < x.sh'],
    ['sh -s < x.sh'],
    ['bash -s -- a b < x.sh'],
    ['cat x.sh | bash'],
    ['cat ./x.sh | sh'],
    ['cat -- x.sh | bash -s'],
    ['exec bash < x.sh'],
    // The name reopens the same file from its start: the program is x.sh (program-runs.ts).
    ['bash /dev/stdin < x.sh'],
  ])('`%s` gives the shell x.sh, whole', (command) => {
    expect(runsOf(command).stdout).toContain('from-x\nmore\n');
    expect(shellInputs(command)).toEqual([join(dir, 'x.sh')]);
  });

  it.each([
    ['( read -r l; exec bash ) < x.sh', 'a builtin read the first line first'],
    ['{ head -c 3 >/dev/null; bash; } < x.sh', 'head took part of it first'],
    ['{ echo echo injected; cat x.sh; } | bash', 'the pipe carried more than the file'],
    ['sed "s/^/echo /" x.sh | bash', 'a filter is no copy'],
    ['cat x.sh y.sh | bash', 'two files'],
    ['cat x.sh | tee /dev/null | bash', 'tee, not cat, fed the shell'],
    ['cat -n x.sh | bash', 'cat with an option is no plain copy'],
    ['cat x.sh | { read -r l; exec bash; }', 'a builtin read the pipe first'],
    ['bash < /dev/null', 'no file of the workspace'],
    ['( read -r l; bash /dev/stdin ) < x.sh', 'a builtin read its input first'],
  ])('`%s` gives the shell nothing whole (%s)', (command) => {
    expect(shellInputs(command).every((s) => s === null || !s.endsWith('/x.sh'))).toBe(true);
  });

  it('records no input for a shell that only reads the script with a builtin', () => {
    const { runs } = runsOf('while read -r l; do :; done < x.sh; cat x.sh > /dev/null');
    expect(runs.map((r) => r.stdin)).toEqual([null, null]);
  });

  it('is stored with every program of an exec chain, and dropped when the trace was cut', () => {
    const { records } = runsOf(`bash -c 'cd /tmp && exec bash' < x.sh`);
    const inner = records.find((p) => p.runs.length === 2);
    expect(inner?.runs.map((r) => r.argv)).toEqual([['bash', '-c', 'cd /tmp && exec bash'], ['bash']]);
    // Kept paths are /workspace and /tmp only: the test's folder stands in for /workspace here.
    const asWorkspace = records.map((p) => ({
      ...p,
      stdin: p.stdin?.replace(dir, '/workspace') ?? null,
      runs: p.runs.map((r) => ({ ...r, stdin: r.stdin?.replace(dir, '/workspace') ?? null })),
    }));
    const logged = processLogs({ processes: asWorkspace, truncated: false }).processes;
    const chain = logged.find((p) => p.earlier_runs !== undefined);
    expect(chain).toMatchObject({
      argv: ['bash'],
      cwd: '/tmp',
      stdin_file: '/workspace/x.sh',
      earlier_runs: [{ argv: ['bash', '-c', 'cd /tmp && exec bash'] }],
    });
    // The input went to the program the chain ended in, not to the bash -c before it.
    expect(chain?.earlier_runs?.[0]?.stdin_file).toBeUndefined();
    const cut = processLogs({ processes: asWorkspace, truncated: true }).processes;
    expect(cut.some((p) => p.stdin_file !== undefined || p.earlier_runs?.some((r) => r.stdin_file))).toBe(
      false,
    );
  });
});
