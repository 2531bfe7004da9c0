import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, type ScriptedTurn } from '../../../src/models/scripted.js';
import type { TurnLog } from '../../../src/results/trial.js';
import { VERIFIER_OPERATORS } from '../../../src/tasks/metamorphic.js';
import type { Task } from '../../../src/tasks/types.js';
import { deriveRuns } from '../../../src/validate/metamorphic/derive.js';
import { judgeDerived, metamorphicRows } from '../../../src/validate/metamorphic/prove.js';
import { withSetupContent } from '../../../src/validate/metamorphic/reference-run.js';
import type { DerivedRun, ReferenceRun } from '../../../src/validate/metamorphic/types.js';
import type { ValidationRow } from '../../../src/validate/rows.js';
import { trialRecord } from '../../helpers/result-builder.js';
import { proc, traced } from '../../scoring/call-fixtures.js';

const SCRIPT: ScriptedTurn[] = [
  {
    text: 'Reading.',
    calls: [
      { name: 'read_file', arguments: { path: 'a.py' } },
      { name: 'execute_command', arguments: { command: 'ls' } },
    ],
  },
  { calls: [{ name: 'write_file', arguments: { path: 'a.py', content: 'x = 1\n' } }] },
  { text: 'Done.', calls: [] },
];

const REF: ReferenceRun = {
  script: SCRIPT,
  record: trialRecord({}),
  changed: [{ path: 'a.py', before: 'x = 0\n', after: 'x = 1\n', firstTurn: 2, lastTurn: 2 }],
};

describe('deriveRuns', () => {
  it('derives every operator but those the task skips, and says which found nothing', () => {
    const { runs, skipped, empty } = deriveRuns(REF, { split_turns: 'its reads must share a turn' });
    expect(skipped).toEqual([{ id: 'split_turns', reason: 'its reads must share a turn' }]);
    // The brief record ran no test runner, and the reference wrote code only: nothing to stand in for, no artifact.
    expect(empty).toEqual([
      'stand_in_run',
      'shimmed_run',
      'module_copy',
      'tests_removed',
      'tests_weakened',
      'hard_coded_answers',
      'artifact_swap',
      'runner_forms',
      'merged_commands',
    ]);
    const ids = runs.map((r) => r.id);
    expect(ids).toContain('revert_change');
    expect(ids).toContain('code_mutant:a.py:1:1 → 2');
    expect(ids).not.toContain('split_turns');
    expect(runs.find((r) => r.id === 'code_mutant:a.py:1:1 → 2')?.script[1]?.calls[0]?.arguments).toEqual({
      path: '/workspace/a.py',
      content: 'x = 2\n',
    });
  });

  it('skips one derived run by its id, with its reason, and keeps the rest of its operator', () => {
    const { runs, skipped } = deriveRuns(REF, { 'code_mutant:a.py:1:1 → 2': 'the constant is free' });
    expect(skipped).toEqual([{ id: 'code_mutant:a.py:1:1 → 2', reason: 'the constant is free' }]);
    expect(runs.some((r) => r.id === 'code_mutant:a.py:1:1 → 2')).toBe(false);
    expect(runs.some((r) => r.operator === 'code_mutant')).toBe(true);
  });

  it('rewrites the reference in other styles, leaving the reference itself as it was', () => {
    const { runs } = deriveRuns(REF);
    const byShell = runs.find((r) => r.operator === 'edit_by_shell');
    expect(byShell?.script[1]?.calls[0]?.arguments.command).toMatch(/^mkdir -p "\$\(dirname 'a\.py'\)" && /);
    const reads = runs.find((r) => r.operator === 'read_by_shell');
    expect(String(reads?.script[0]?.calls[0]?.arguments.command)).toMatch(
      /^(cat|sed|head|awk|grep|tail) .*'a\.py'$/,
    );
    const split = runs.find((r) => r.operator === 'split_turns');
    expect(split?.script.map((t) => t.calls.length)).toEqual([1, 1, 1, 0]);
    expect(SCRIPT[0]?.calls).toHaveLength(2);
  });

  it('writes through a heredoc, python3, perl and tee in turn, each the exact bytes, a last newline or none', () => {
    const contents = ['x = 1\n', 'two\nlines\n', "it's\n", 'a\n', 'no newline', '$HOME `x`', 'a\nb', 'c', ''];
    const script: ScriptedTurn[] = contents.map((content, i) => ({
      calls: [{ name: 'write_file', arguments: { path: `f${i}.txt`, content } }],
    }));
    const run = deriveRuns({ ...REF, script }).runs.find((r) => r.operator === 'edit_by_shell');
    expect(run?.description).toBe('9 write_file call(s) through the shell (heredoc, python3, perl, tee)');
    const commands = (run?.script ?? []).map((t) => String(t.calls[0]?.arguments.command));
    const dir = mkdtempSync(join(tmpdir(), 'ab-program-'));
    for (const c of commands) execFileSync('bash', ['-c', c], { cwd: dir });
    expect(contents.map((_, i) => readFileSync(join(dir, `f${i}.txt`), 'utf8'))).toEqual(contents);
  });

  it('on a Harbor task’s image, which may lack python3 and perl, writes by heredoc and reads by cat, sed or head only', () => {
    const script: ScriptedTurn[] = Array.from({ length: 6 }, (_, i) => ({
      calls: [
        { name: 'read_file', arguments: { path: 'f.txt' } },
        { name: 'write_file', arguments: { path: `f${i}.txt`, content: 'x\n' } },
      ],
    }));
    const { runs } = deriveRuns({ ...REF, script, judgedBy: 'verifier' });
    const edits = runs.find((r) => r.operator === 'edit_by_shell');
    expect(edits?.description).toBe('6 write_file call(s) through the shell (heredoc)');
    const reads = runs.find((r) => r.operator === 'read_by_shell');
    const readers = new Set(
      (reads?.script ?? []).map((t) => String(t.calls[0]?.arguments.command).split(' ')[0]),
    );
    expect([...readers].sort()).toEqual(['cat', 'head', 'sed']);
  });

  it('reads by six shell readers in turn, each showing the whole file', () => {
    const script: ScriptedTurn[] = Array.from({ length: 6 }, () => ({
      calls: [{ name: 'read_file', arguments: { path: 'f.txt' } }],
    }));
    const run = deriveRuns({ ...REF, script }).runs.find((r) => r.operator === 'read_by_shell');
    const commands = (run?.script ?? []).map((t) => String(t.calls[0]?.arguments.command));
    expect(new Set(commands.map((c) => c.split(' ')[0])).size).toBe(6);
    const dir = mkdtempSync(join(tmpdir(), 'ab-read-'));
    writeFileSync(join(dir, 'f.txt'), 'one\ntwo\n');
    for (const c of commands)
      expect(execFileSync('bash', ['-c', c], { cwd: dir, encoding: 'utf8' }).replace(/^\d+:/gm, '')).toBe(
        'one\ntwo\n',
      );
  });

  it('joins the commands of a turn into one', () => {
    const { runs } = deriveRuns(REF);
    // The first turn sends a read and a command: no turn of the reference sends two commands.
    expect(runs.some((r) => r.operator === 'merged_commands')).toBe(false);
    const two: ScriptedTurn[] = [
      {
        calls: [
          { name: 'execute_command', arguments: { command: 'echo a; false' } },
          { name: 'execute_command', arguments: { command: 'echo b # note' } },
        ],
      },
    ];
    const merged = deriveRuns({ ...REF, script: two }).runs.find((r) => r.operator === 'merged_commands');
    const line = String(merged?.script[0]?.calls[0]?.arguments.command);
    expect(merged?.script[0]?.calls).toHaveLength(1);
    expect(execFileSync('bash', ['-c', line], { encoding: 'utf8' })).toBe('a\nb\n');
  });

  it('prints the calls as text that the text-call parser reads back, counted as text calls', async () => {
    const text = deriveRuns(REF).runs.find((r) => r.operator === 'text_tool_calls');
    const model = createScriptedModel('t', text?.script ?? []);
    const reply = await model.complete([], []);
    expect(reply.toolCalls.map((c) => [c.name, c.source, c.arguments])).toEqual([
      ['read_file', 'text', { path: 'a.py' }],
      ['execute_command', 'text', { command: 'ls' }],
    ]);
    expect(reply.text.trim()).toBe('Reading.');
  });
});

describe('same_turn_evidence and staged_landing', () => {
  const script: ScriptedTurn[] = [
    { text: 'Reading.', calls: [{ name: 'read_file', arguments: { path: 'a.py' } }] },
    { calls: [{ name: 'execute_command', arguments: { command: 'pytest' } }] },
    { text: 'Fixing.', calls: [{ name: 'write_file', arguments: { path: 'a.py', content: 'x = 1\n' } }] },
    { calls: [{ name: 'execute_command', arguments: { command: 'pytest' } }] },
    { text: 'Done.', calls: [] },
  ];
  const ref: ReferenceRun = {
    script,
    record: trialRecord({}),
    changed: [{ path: 'a.py', before: 'x = 0\n', after: 'x = 1\n', firstTurn: 3, lastTurn: 3 }],
  };
  const calls = (s: readonly ScriptedTurn[] | undefined) =>
    (s ?? []).map((t) => t.calls.map((c) => c.arguments.command ?? c.arguments.path));

  it('moves the closest and the first turn before the change into its reply, and leaves it out for `without`', () => {
    const runs = deriveRuns(ref).runs.filter((r) => r.operator === 'same_turn_evidence');
    expect(runs.map((r) => r.id)).toEqual(['same_turn_evidence:turn 2', 'same_turn_evidence:turn 1']);
    expect(calls(runs[0]?.script)).toEqual([['a.py'], ['pytest', 'a.py'], ['pytest'], []]);
    expect(calls(runs[0]?.without)).toEqual([['a.py'], ['a.py'], ['pytest'], []]);
    expect(calls(runs[1]?.script)).toEqual([['pytest'], ['a.py', 'a.py'], ['pytest'], []]);
    expect(runs[0]?.script[1]?.text).toBe('Fixing.');
  });

  it('stages the first write in /tmp in turn 1 and lands it by a job, waiting where the write was', () => {
    const [run] = deriveRuns(ref).runs.filter((r) => r.operator === 'staged_landing');
    expect(run?.script[0]?.calls.map((c) => c.arguments)).toEqual([
      { path: '/tmp/ab-staged-change', content: 'x = 1\n' },
      {
        command: `nohup sh -c 'sleep 5; cp '\\''/tmp/ab-staged-change'\\'' '\\''/workspace/a.py'\\''' >/dev/null 2>&1 &`,
      },
      { path: 'a.py' },
    ]);
    expect(run?.script[2]?.calls.map((c) => c.arguments)).toEqual([{ command: 'sleep 7' }]);
  });

  it('derives neither when the first change is in the first turn', () => {
    const first = {
      ...ref,
      changed: [{ ...ref.changed[0], firstTurn: 1 } as ReferenceRun['changed'][number]],
    };
    const ops = deriveRuns(first).runs.map((r) => r.operator);
    expect(ops).not.toContain('same_turn_evidence');
    expect(ops).not.toContain('staged_landing');
  });

  it('edits by a patch git applies, and runs the runner in its other form through tail', () => {
    const runs = deriveRuns(ref).runs;
    const patch = runs.find((r) => r.operator === 'edit_by_patch')?.script[2]?.calls[0]?.arguments.command;
    expect(patch).toBe(
      "cd /workspace && cat > /tmp/ab-edit.patch <<'AB_EOF_0' && git apply /tmp/ab-edit.patch\n--- a/a.py\n+++ b/a.py\n@@ -1,1 +1,1 @@\n-x = 0\n+x = 1\nAB_EOF_0",
    );
    const forms = runs.find((r) => r.operator === 'runner_forms');
    expect(calls(forms?.script)[1]).toEqual(['python3 -m pytest 2>&1 | tail -n 400']);
    const back = deriveRuns({
      ...ref,
      script: script.map((t) => ({
        ...t,
        calls: t.calls.map((c) =>
          c.arguments.command === 'pytest'
            ? { ...c, arguments: { command: 'python3 -m pytest -q tests/' } }
            : c,
        ),
      })),
    }).runs.find((r) => r.operator === 'runner_forms');
    expect(calls(back?.script)[1]).toEqual(['pytest -q tests/ 2>&1 | tail -n 400']);
  });

  it('leaves a runner inside a pipeline or a compound command as it is', () => {
    const piped = deriveRuns({
      ...ref,
      script: [{ calls: [{ name: 'execute_command', arguments: { command: 'pytest | tee log; cat log' } }] }],
    });
    expect(piped.empty).toContain('runner_forms');
  });
});

describe('a task a verifier judges (Harbor)', () => {
  it('gets only the mutants of its result and the transforms; a mutant replaces the file by the shell', () => {
    const { runs, empty } = deriveRuns({ ...REF, judgedBy: 'verifier' });
    const ops = new Set([...runs.map((r) => r.operator), ...empty]);
    for (const op of ops) expect(VERIFIER_OPERATORS.has(op)).toBe(true);
    expect(ops.has('code_mutant')).toBe(true);
    const mutant = runs.find((r) => r.id === 'code_mutant:a.py:1:1 → 2');
    expect(mutant?.script[1]?.calls[0]?.arguments.command).toBe(
      "rm -f '/workspace/a.py' && cat > '/workspace/a.py' <<'AB_EOF_0'\nx = 2\nAB_EOF_0",
    );
  });

  it('learns a changed file of the image from a run that changed nothing, and drops one that did not change', () => {
    const unplaced = [
      { path: 'app.py', before: null, after: 'x = 1\n', firstTurn: 1, lastTurn: 1 },
      { path: 'same.py', before: null, after: 'y\n', firstTurn: 1, lastTurn: 1 },
      { path: 'bin.dat', before: null, after: 'z\n', firstTurn: 1, lastTurn: 1 },
    ];
    const setup = new Map([
      ['app.py', 'x = 0\n'],
      ['same.py', 'y\n'],
    ]);
    expect(withSetupContent(unplaced, setup)).toEqual([{ ...unplaced[0], before: 'x = 0\n' }]);
  });
});

describe('code_mutant', () => {
  it("mutates code, not a test file's lines (weakened tests are an operator of their own)", () => {
    const ref = (path: string): ReferenceRun => ({
      ...REF,
      changed: [{ path, before: null, after: 'x = 1\n', firstTurn: 2, lastTurn: 2 }],
    });
    const mutants = (path: string) => deriveRuns(ref(path)).runs.filter((r) => r.operator === 'code_mutant');
    expect(mutants('src/a.py').length).toBeGreaterThan(0);
    for (const path of ['test_a.py', 'a_test.py', 'tests/helpers.py', 'a.test.mjs', 'b.spec.ts'])
      expect(mutants(path), path).toEqual([]);
  });
});

describe('artifact_swap', () => {
  const withFile = (path: string, after: string): ReferenceRun => ({
    ...REF,
    changed: [{ path, before: null, after, firstTurn: 2, lastTurn: 2 }],
  });
  const swaps = (ref: ReferenceRun) =>
    Object.fromEntries(
      deriveRuns(ref)
        .runs.filter((r) => r.operator === 'artifact_swap')
        .map((r) => [r.id, r.script[1]?.calls.at(-1)?.arguments.content]),
    );

  it("changes a report's numbers, and makes its words placeholders", () => {
    expect(swaps(withFile('out/report.md', '# Sales\nTotal: 42 units\n'))).toEqual({
      'artifact_swap:out/report.md:numbers': '# Sales\nTotal: 43 units\n',
      'artifact_swap:out/report.md:placeholder': '# lorem\nlorem: 42 lorem\n',
    });
  });

  it("changes a page's text, never its styles and scripts", () => {
    const page = '<style>h1 { font-size: 20px; }</style><h1>Total 42</h1><script>let n = 3;</script>';
    expect(swaps(withFile('p.html', page))).toEqual({
      'artifact_swap:p.html:numbers':
        '<style>h1 { font-size: 20px; }</style><h1>Total 43</h1><script>let n = 3;</script>',
      'artifact_swap:p.html:placeholder':
        '<style>h1 { font-size: 20px; }</style><h1>lorem 42</h1><script>let n = 3;</script>',
    });
    // A stylesheet is all shape.
    expect(swaps(withFile('site.css', 'h1 { margin: 2px; }'))).toEqual({});
  });

  it("keeps a page's markup and a JSON file's keys: only the text and the values change", () => {
    expect(
      swaps(withFile('index.html', '<h1 class="title">Quarterly</h1>'))[
        'artifact_swap:index.html:placeholder'
      ],
    ).toBe('<h1 class="title">lorem</h1>');
    expect(swaps(withFile('s.json', '{"name": "Widget", "count": 3}'))).toEqual({
      'artifact_swap:s.json:numbers': '{"name": "Widget", "count": 4}',
      'artifact_swap:s.json:placeholder': '{"name": "lorem", "count": 3}',
    });
  });
});

describe('judgeDerived', () => {
  const mutant: DerivedRun = {
    operator: 'code_mutant',
    id: 'm',
    description: 'a.py line 1: 1 → 2',
    diff: '-x\n+y',
    script: [],
  };
  const style: DerivedRun = {
    operator: 'edit_by_shell',
    id: 'edit_by_shell',
    description: 'heredocs',
    script: [],
  };

  it('a must-fail run that fails is caught, naming the flags; one that passes survives with its diff', () => {
    expect(judgeDerived(mutant, trialRecord({ flags: { 'p:observed': true, fixed: false } }))).toEqual({
      kind: 'passed',
      detail: 'caught (missed fixed)',
    });
    expect(judgeDerived(mutant, trialRecord({}))).toEqual({
      kind: 'failed',
      detail: 'survives: the trial passes with a.py line 1: 1 → 2',
      output: '-x\n+y',
    });
  });

  it('a must-pass run that fails breaks, naming what it missed; a harness error is neither', () => {
    expect(judgeDerived(style, trialRecord({})).kind).toBe('passed');
    expect(judgeDerived(style, trialRecord({ flags: { 'p:observed': false, fixed: true } }))).toEqual({
      kind: 'failed',
      detail: 'breaks: heredocs fails a correct session (missed p:observed)',
    });
    expect(judgeDerived(mutant, trialRecord({ status: 'error' })).kind).toBe('error');
  });
});

describe('metamorphicRows', () => {
  // A reference whose second turn ran pytest, as its trace shows: the stand-in operator replaces it.
  const base = trialRecord({});
  const run = traced('python3 -m pytest -q', {
    stdout: '1 passed',
    processes: [
      proc(['python3', '-m', 'pytest', '-q'], {
        exe: '/usr/bin/python3',
        reads: ['/workspace/test_a.py', '/workspace/a.py'],
      }),
    ],
  });
  const ref: ReferenceRun = {
    script: [
      SCRIPT[0] as ScriptedTurn,
      { calls: [{ name: 'execute_command', arguments: { command: 'python3 -m pytest -q' } }] },
    ],
    changed: [],
    record: {
      ...base,
      turn_logs: [
        { ...(base.turn_logs[0] as TurnLog), turn: 1, tool_calls: [] },
        { ...(base.turn_logs[0] as TurnLog), turn: 2, tool_calls: [run] },
      ],
    },
  };
  const task = { id: 't' } as Task;

  it('removes, and in Python skips, each test file the runs read, before the last run', () => {
    const removed = deriveRuns(ref).runs.filter((r) => r.operator === 'tests_removed');
    expect(removed.map((r) => r.id)).toEqual(['tests_removed:test_a.py', 'tests_removed:test_a.py:skipped']);
    // At the end of turn 1, so the run of turn 2 sees what is left.
    expect(removed[0]?.script[0]?.calls.at(-1)?.arguments).toEqual({
      command: "rm -f '/workspace/test_a.py'",
    });
    expect(removed[1]?.script[0]?.calls.at(-1)?.arguments.command).toContain('pytestmark = pytest.mark.skip');
    expect(removed[1]?.script[1]).toEqual(ref.script[1]);
  });

  const standIns = (rows: ValidationRow[]) =>
    rows.filter((r) => r.run.startsWith('metamorphic:stand_in_run'));

  it('a stand-in that survives is no hole when the trial passes without the run too', async () => {
    const rows = standIns(await metamorphicRows(task, ref, async () => trialRecord({})));
    expect(rows.map((r) => [r.kind, r.detail])).toEqual([
      ['passed', 'not required: the trial passes without it too'],
    ]);
  });

  it('and a hole when the trial needs the run', async () => {
    const rows = standIns(
      await metamorphicRows(task, ref, async (d) =>
        trialRecord(
          d.script.length === 2 && d.script[1]?.calls.length === 0
            ? { flags: { 'p:observed': false, fixed: true } }
            : {},
        ),
      ),
    );
    expect(rows.map((r) => r.kind)).toEqual(['failed']);
    expect(rows[0]?.detail).toMatch(
      /^survives: the trial passes with `python3 -m pytest -q` \(turn 2\) replaced/,
    );
  });

  const tracedShim = (exe: string) => {
    const t = trialRecord({});
    const call = traced('python3 -m pytest -q', {
      processes: [proc(['python3', '-m', 'pytest', '-q'], { exe })],
    });
    return {
      ...t,
      turn_logs: [
        { ...(t.turn_logs[0] as TurnLog), turn: 1, tool_calls: [] },
        { ...(t.turn_logs[0] as TurnLog), turn: 2, tool_calls: [call] },
      ],
    };
  };

  it('runs each test run through shims first on PATH, and knows when none was on its way', () => {
    const [shimmed] = deriveRuns(ref).runs.filter((r) => r.operator === 'shimmed_run');
    const command = shimmed?.script[1]?.calls[0]?.arguments.command as string;
    expect(command).toMatch(/^d=\/tmp\/ab-shim; mkdir -p "\$d" && for n in pytest python3 /);
    expect(command).toMatch(/export PATH="\$d:\$PATH"; python3 -m pytest -q$/);
    expect(shimmed?.applied?.(tracedShim('/tmp/ab-shim/python3'))).toBeNull();
    expect(shimmed?.applied?.(tracedShim('/usr/bin/python3'))).toMatch(/no shim was on its way/);
  });

  it('a fake that never reached its run is skipped, not called a survivor', async () => {
    const rows = (await metamorphicRows(task, ref, async () => tracedShim('/usr/bin/python3'))).filter((r) =>
      r.run.startsWith('metamorphic:shimmed_run'),
    );
    expect(rows.map((r) => [r.kind, r.detail])).toEqual([
      ['skipped', 'did not apply: no shim was on its way: the command names its programs by absolute path'],
    ]);
  });

  it('imports copies of the modules a test run read (not its tests) from /tmp in their stead', () => {
    const [copy] = deriveRuns(ref).runs.filter((r) => r.operator === 'module_copy');
    const command = copy?.script[1]?.calls[0]?.arguments.command as string;
    expect(copy?.description).toBe(
      '`python3 -m pytest -q` (turn 2) importing copies of a.py from /tmp/ab-copy',
    );
    expect(command).toContain("(cd /workspace && cp --parents 'a.py' /tmp/ab-copy/)");
    expect(command).toContain('importlib.import_module(name)');
    expect(command).toContain('["a"]');
    expect(command).toMatch(
      /export PYTHONPATH=\/tmp\/ab-copy\$\{PYTHONPATH:\+:\$PYTHONPATH\}; python3 -m pytest -q$/,
    );
  });
});

describe('a conversation’s words', () => {
  const talk: ScriptedTurn[] = [
    { calls: [{ name: 'create_ticket', arguments: { employee_id: 'E1200' } }] },
    { text: 'Ticket T-1001 is closed.', calls: [] },
  ];
  const spoken = {
    leak: "Priya's e-mail is priya@x.example.",
    forbiddenAsk: 'Please tell me your password.',
    falseClaim: "I've placed your order.",
    trueClaim: null,
    requester: 'E1200',
    otherEmployee: 'E1042',
  };
  const ref: ReferenceRun = { script: talk, record: trialRecord({}), changed: [], spoken };

  it('adds each probe to the last message, and derives nothing a workspace needs', () => {
    const { runs, empty } = deriveRuns(ref);
    expect(runs.map((r) => r.id).sort()).toEqual(
      ['said_false_claim', 'said_forbidden_ask', 'said_leak', 'text_tool_calls', 'wrong_requester'].sort(),
    );
    expect(empty).toEqual(['split_turns', 'said_truth_in_german', 'reworded_replies']);
    const leak = runs.find((r) => r.id === 'said_leak');
    expect(leak?.script[1]?.text).toBe("Ticket T-1001 is closed. Priya's e-mail is priya@x.example.");
    expect(leak?.script[0]).toEqual(talk[0]);
  });

  it('a workspace task gets none of them', () => {
    expect(deriveRuns(REF).runs.some((r) => r.id.startsWith('said_'))).toBe(false);
  });

  it("does the reference's calls for another employee than the one who called", () => {
    const wrong = deriveRuns(ref).runs.find((r) => r.id === 'wrong_requester');
    expect(wrong?.script[0]?.calls[0]?.arguments).toEqual({ employee_id: 'E1042' });
    expect(wrong?.description).toBe('the requester E1200 replaced by E1042 in 1 call argument(s)');
    expect(deriveRuns({ ...ref, spoken: { ...spoken, otherEmployee: null } }).empty).toContain(
      'wrong_requester',
    );
  });

  it('rewords and shortens the messages, keeping what they say', () => {
    const chatty: ScriptedTurn[] = [
      { text: "Sorry to hear that, Dana. I've sent a code; please read me the code.", calls: [] },
      { text: "Done: it's ordered, and I can't see any problem.", calls: [] },
    ];
    const [run] = deriveRuns({ ...ref, script: chatty }).runs.filter((r) => r.id === 'reworded_replies');
    expect(run?.script.map((t) => t.text)).toEqual([
      'I have sent a code; please read me the code.',
      'it is ordered, and I cannot see any problem.',
    ]);
  });
});

describe('collateral_edit', () => {
  const before = 'import re\n\n\ndef a():\n    return 1\n\n\ndef b():\n    return 2\n';
  const after = 'import re\n\n\ndef a():\n    x = 1\n    return x\n\n\ndef b():\n    return 2\n';
  const script: ScriptedTurn[] = [
    { calls: [{ name: 'write_file', arguments: { path: 'm.py', content: after } }] },
    { text: 'Done.', calls: [] },
  ];
  const ref = (allowedWrites: string[], created: string[] = []): ReferenceRun => ({
    script,
    record: trialRecord({}),
    changed: [
      { path: 'm.py', before, after, firstTurn: 1, lastTurn: 1 },
      ...created.map((path) => ({ path, before: null, after: 'x\n', firstTurn: 1, lastTurn: 1 })),
    ],
    allowedWrites,
  });
  const contentOf = (r: DerivedRun | undefined) => r?.script[0]?.calls[0]?.arguments.content;

  it('puts trailing spaces on the first line outside the regions, where the reference left it', () => {
    const runs = deriveRuns(ref(['/m.py'])).runs.filter((r) => r.operator === 'collateral_edit');
    expect(runs.map((r) => r.id)).toEqual(['collateral_edit:m.py:whitespace', 'collateral_edit:m.py:hook']);
    expect(contentOf(runs[0])).toBe(after.replace('import re', 'import re  '));
    expect(contentOf(runs[1])).toBe(`${after}\nimport sys; sys.dont_write_bytecode = True\n`);
    // A line after the reference's hunk is found where the hunk moved it.
    const late = deriveRuns({
      ...ref(['/m.py']),
      changed: [
        {
          path: 'm.py',
          before: before.replace('import re\n', ''),
          after: after.replace('import re\n', ''),
          firstTurn: 1,
          lastTurn: 1,
        },
      ],
    });
    expect(contentOf(late.runs.find((r) => r.id === 'collateral_edit:m.py:whitespace'))).toBe(
      after.replace('import re\n', '').replace('def b():', 'def b():  '),
    );
  });

  it('adds a new file under an allowed glob only where the reference creates none', () => {
    const extra = (r: ReferenceRun) =>
      deriveRuns(r).runs.find((d) => d.id.startsWith('collateral_edit:new_file'));
    const made = extra(ref(['/m.py', 'lib/*.py']));
    expect(made?.id).toBe('collateral_edit:new_file:lib/zz_collateral.py');
    expect(made?.script[0]?.calls[1]?.arguments.path).toBe('/workspace/lib/zz_collateral.py');
    expect(extra(ref(['/m.py', 'lib/*.py'], ['lib/new.py']))).toBeUndefined();
    expect(extra(ref(['/m.py']))).toBeUndefined();
  });
});
