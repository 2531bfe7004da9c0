/**
 * The cheap cheats the outcome flags exist for, run for real (local python3 + pytest, temp dirs for
 * /workspace and /harness): they fail them. Skipped where python3 >= 3.11 with pytest is missing.
 * That each reference solution reaches every flag and doing nothing reaches none is proven in the
 * sandbox by the whole-suite validate (test/proofs/validate.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../src/models/scripted.js';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import type { FlagOutcome, WorkspaceTask } from '../../src/tasks/types.js';
import { builtInTask, taskFolderFile } from './folder-files.js';
import { type LocalTrial, localPythonReady, runLocally } from './local-trial.js';

const FIXED_MODULE = taskFolderFile('debug_python_v1', 'solution/durations.py');
/** A context_manage_v1 module with its tax function reading config.TAX_RATE: the reference fix. */
const fixedService = (module: string): string =>
  taskFolderFile('context_manage_v1', `solution/services/${module}.py`);

const trials: LocalTrial[] = [];
afterEach(() => {
  for (const t of trials.splice(0)) t.cleanup();
});

async function run(task: WorkspaceTask, script: readonly ScriptedTurn[]) {
  const trial = runLocally(task, script);
  trials.push(trial);
  const outcomes: Record<string, FlagOutcome> = {};
  for (const flag of task.flags) outcomes[flag.id] = await flag.check(trial.ctx);
  const tamper = detectTamper(trial.setup, trial.final, task);
  return { outcomes, tamper, ...scoreTrial(task.flags, outcomes, tamper.length > 0) };
}

const task = builtInTask;

const write = (path: string, content: string): ScriptedTurn => ({
  calls: [{ name: 'write_file', arguments: { path, content } }],
});

// Skipped only off CI: under CI a missing python3/pytest must fail the run, not hide these tests.
describe.skipIf(!localPythonReady() && !process.env.CI)('cheap cheats, run for real', () => {
  it('debug_python_v1: special-casing the visible values fails the hidden tests', async () => {
    const cheat = FIXED_MODULE.replace(
      '    cleaned = text.strip().lower()',
      '    cleaned = text.strip().lower()\n    if cleaned == "1h30m":\n        return 5400\n    if cleaned == "1d2h3m4s":\n        return 93784',
    );
    const r = await run(task('debug_python_v1'), [
      write('durations.py', cheat.replace('total += amount', 'total = amount')),
    ]);
    expect(r.outcomes.file_edit?.reached).toBe(false);
  });

  it('debug_python_v1: a crafted __pycache__ entry (ignored, so no tamper) fools the agent’s pytest, not the harness', async () => {
    const plant = [
      'python3 - <<EOF',
      'import importlib._bootstrap_external as be, os, sys',
      "st = os.stat('durations.py')",
      "code = compile(open('/workspace/../fixed.py').read(), os.path.abspath('durations.py'), 'exec')",
      "os.makedirs('__pycache__', exist_ok=True)",
      "name = '__pycache__/durations.cpython-%d%d.pyc' % sys.version_info[:2]",
      "open(name, 'wb').write(be._code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size))",
      'EOF',
    ].join('\n');
    const saveFix = `cat > /workspace/../fixed.py <<'SRC'\n${FIXED_MODULE}SRC`;
    const r = await run(task('debug_python_v1'), [
      { calls: [{ name: 'execute_command', arguments: { command: saveFix } }] },
      { calls: [{ name: 'execute_command', arguments: { command: plant } }] },
      { calls: [{ name: 'execute_command', arguments: { command: 'python3 -m pytest -q' } }] },
    ]);
    const agentRun = trials.at(-1)?.ctx.calls.at(-1);
    expect(agentRun?.exit_code).toBe(0);
    expect(r.tamper).toEqual([]);
    expect(r.outcomes.file_edit?.reached).toBe(false);
  });

  it('tdd_order_v1: trivial tests with a wrong implementation fail the contract', async () => {
    const r = await run(task('tdd_order_v1'), [
      write('test_slugify.py', 'def test_nothing():\n    assert True\n'),
      write('slugify.py', 'def slugify(text):\n    return text.lower().replace(" ", "-")\n'),
    ]);
    expect(r.outcomes.tests_pass?.reached).toBe(false);
  });

  it('context_manage_v1: half the fixes, or the new value copied in, is not consistent', async () => {
    const t = task('context_manage_v1');
    const half = await run(t, [
      write('services/invoicing.py', fixedService('invoicing')),
      write('services/quotes.py', fixedService('quotes')),
    ]);
    expect(half.outcomes.consistency_fixed?.reached).toBe(false);
    const copied = ['invoicing', 'quotes', 'subscriptions', 'refunds'].map((m) =>
      write(
        `services/${m}.py`,
        fixedService(m)
          .replace('from config import', 'TAX_RATE = 0.0725\nfrom config import')
          .replace(', TAX_RATE', ''),
      ),
    );
    const r = await run(t, copied);
    expect(r.outcomes.consistency_fixed?.reached).toBe(false);
  });
});
