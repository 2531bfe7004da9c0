/**
 * When a required command counts: only simple commands the harness parsed from calls that ran,
 * whose program is what the pattern names; a stubbed script only with a stub-log line that pairs
 * with such a run. Echoing the command, or forging the log, counts for nothing.
 */
import { describe, expect, it } from 'vitest';
import type { ToolCallLog } from '../../src/results/trial.js';
import { rerunLine } from '../../src/skills/command-flags.js';
import { type CommandGroup, groupRuns, inOrder, type Matcher } from '../../src/skills/command-match.js';
import { invocations } from '../../src/skills/invocations.js';
import { toRegExp } from '../../src/skills/regex.js';
import { shell } from '../scoring/call-fixtures.js';

const group = (pattern: string, exitCode: number | null = null): CommandGroup => ({
  id: '0',
  patterns: [toRegExp(pattern)],
  exitCode,
  recheck: false,
  description: null,
});
const NO_STUBS: Matcher = { stubs: new Map() };
const STUBBED: Matcher = { stubs: new Map([['/workspace/skill/scripts/x.sh', 'scripts/x.sh']]) };

function ctx(calls: ToolCallLog[], log = '') {
  return {
    calls: calls.map((c, i) => ({ ...c, turn: i + 1 })),
    groundTruth: {
      run: () => Promise.reject(new Error('no runs here')),
      readFile: async (path: string) => (path === '.stub_calls.log' ? log : null),
    },
  };
}

const logLine = (argv: string[], cwd = '.') => `${JSON.stringify({ script: 'scripts/x.sh', argv, cwd })}\n`;

async function turns(calls: ToolCallLog[], g: CommandGroup, m = NO_STUBS, log = ''): Promise<number[]> {
  return (await groupRuns(ctx(calls, log), g, m)).runs.map((r) => r.inv.turn);
}

describe('required commands match what ran, never the text', () => {
  const report = group('make_report\\.sh\\s+.*--title\\s+\\S+');

  it('counts the script run by an interpreter, by path, after cd, or inside bash -c', async () => {
    expect(
      await turns(
        [
          shell('sh skill/scripts/make_report.sh --title daily'),
          shell('./skill/scripts/make_report.sh --title daily'),
          shell('cd skill && bash -e scripts/make_report.sh --title "a b"'),
          shell("bash -c 'timeout 60 sh /workspace/skill/scripts/make_report.sh --title x'"),
        ],
        report,
      ),
    ).toEqual([1, 2, 3, 4]);
  });

  it('does not count a script that is only an argument: echo, cat, grep, a comment, a heredoc', async () => {
    expect(
      await turns(
        [
          shell('echo scripts/make_report.sh --title x'),
          shell('cat skill/scripts/make_report.sh --title x'),
          shell('grep -n "make_report.sh --title x" skill/SKILL.md'),
          shell('true # sh make_report.sh --title x'),
          shell("cat <<'EOF'\nsh make_report.sh --title x\nEOF"),
          shell('printf "%s" "$(echo make_report.sh --title x)"'),
        ],
        report,
      ),
    ).toEqual([]);
  });

  it('does not count a pattern that names only arguments, nor a refused or unrun call', async () => {
    const args = group('--title\\s+daily');
    expect(await turns([shell('sh skill/scripts/make_report.sh --title daily')], args)).toEqual([]);
    const refused = {
      ...shell('sh make_report.sh --title a'),
      invalid: 'bad_arguments' as const,
      exit_code: null,
    };
    expect(await turns([refused], report)).toEqual([]);
  });

  it('checks the exit code only where the call reports the command own status', async () => {
    const ok = group('check_page\\.py', 0);
    const calls = [
      shell('python3 skill/check_page.py out.html', { exit: 1 }),
      shell('python3 skill/check_page.py out.html || true', { exit: 0 }),
      shell('python3 skill/check_page.py out.html', { exit: 0 }),
    ];
    expect(await turns(calls, ok)).toEqual([3]);
    const { near } = await groupRuns(ctx(calls.slice(0, 1)), ok, NO_STUBS);
    expect(near).toMatch(/exit code 1, expected 0/);
  });

  it('knows `python3 -m module` runs the module, and `python3 -c` runs python3', async () => {
    const calls = [shell('python3 -m pytest -q'), shell('python3 -c "import pytest"')];
    expect(invocations(ctx(calls)).map((i) => i.argv[i.program]?.text)).toEqual(['pytest', 'python3']);
  });
});

describe('a stubbed script', () => {
  const x = group('x\\.sh\\s+--title\\s+\\S+');

  it('counts when its stub recorded the run, with the same arguments and directory', async () => {
    const calls = [shell('sh skill/scripts/x.sh --title a'), shell('cd skill && sh scripts/x.sh --title b')];
    const log = logLine(['--title', 'a']) + logLine(['--title', 'b'], 'skill');
    expect(await turns(calls, x, STUBBED, log)).toEqual([1, 2]);
    const runs = (await groupRuns(ctx(calls, log), x, STUBBED)).runs;
    expect(runs.map((r) => r.stubCall?.argv)).toEqual([
      ['--title', 'a'],
      ['--title', 'b'],
    ]);
  });

  it('takes an expanded argument from the log', async () => {
    const log = logLine(['--title', '2026-11-29']);
    expect(await turns([shell('sh skill/scripts/x.sh --title "$(date +%F)"')], x, STUBBED, log)).toEqual([1]);
  });

  it('does not count a run the stub never recorded (it did not run)', async () => {
    const calls = [shell('false && sh skill/scripts/x.sh --title a', { exit: 1 })];
    expect(await turns(calls, x, STUBBED, '')).toEqual([]);
    expect((await groupRuns(ctx(calls), x, STUBBED)).near).toMatch(/did not run the stub/);
  });

  it('does not count a forged log line, nor one line for two runs', async () => {
    const forged = logLine(['--title', 'a']);
    expect(await turns([shell('echo sh skill/scripts/x.sh --title a')], x, STUBBED, forged)).toEqual([]);
    expect(await turns([shell(`echo '${forged.trim()}' >> .stub_calls.log`)], x, STUBBED, forged)).toEqual(
      [],
    );
    const twice = [
      shell('sh skill/scripts/x.sh --title a'),
      shell('false && sh skill/scripts/x.sh --title a'),
    ];
    expect(await turns(twice, x, STUBBED, forged)).toEqual([1]);
    expect(await turns([shell('sh skill/scripts/x.sh --title b')], x, STUBBED, forged)).toEqual([]);
  });
});

describe('order and re-runs', () => {
  it('needs one run per group, each after the previous', async () => {
    const a = group('a\\.sh');
    const b = group('b\\.sh');
    const runsOf = async (calls: ToolCallLog[]) =>
      Promise.all([a, b].map(async (g) => (await groupRuns(ctx(calls), g, NO_STUBS)).runs));
    expect(inOrder(await runsOf([shell('sh a.sh'), shell('sh b.sh')]))).toBe(true);
    expect(inOrder(await runsOf([shell('sh b.sh'), shell('sh a.sh')]))).toBe(false);
    expect(inOrder(await runsOf([shell('sh b.sh'), shell('sh a.sh'), shell('sh b.sh')]))).toBe(true);
    expect(inOrder(await runsOf([shell('sh a.sh && sh b.sh')]))).toBe(true);
  });

  it('re-runs the simple command itself, in its directory, expansions left to the shell', () => {
    const [, inv] = invocations(
      ctx([shell(`cd skill && python3 check.py 'out put.html' "$HOME" *.txt; echo done`)]),
    );
    expect(inv === undefined ? null : rerunLine(inv)).toBe(
      `cd '/workspace/skill' && 'python3' 'check.py' 'out put.html' "$HOME" *.txt`,
    );
  });
});
