/** A failed trial of debug_python_v1 that fixes durations.py without reading it, as a results file. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getTask } from '../../../src/catalogue/built-in.js';
import type { ResultFile } from '../../../src/results/result-file.js';
import { withHash } from '../../../src/results/store.js';
import type { TurnLog } from '../../../src/results/trial.js';
import { taskVersion } from '../../../src/tasks/version.js';
import { MISS, result } from '../../helpers/result-builder.js';

export const FIXED = 'solution/durations.py';

/** The crafted trial's calls: run the tests, overwrite the module unread, run them again. */
export async function writeUnreadFixTrial(dir: string, fixedModule: string): Promise<string> {
  const task = getTask('debug_python_v1');
  if (task === undefined) throw new Error('debug_python_v1 is missing');
  const { result_hash: _, ...base } = result({ task: task.id, model: 'small-model', trials: [MISS, MISS] });
  const template = base.trials[0]?.turn_logs[0];
  if (template === undefined) throw new Error('the builder made no turn');
  const call = (name: string, args: Record<string, unknown>) => ({
    ...template.tool_calls[0],
    name,
    arguments: args,
    raw_arguments: JSON.stringify(args),
  });
  const turns: TurnLog[] = [
    { ...template, turn: 1, tool_calls: [call('execute_command', { command: 'python3 -m pytest -q' })] },
    {
      ...template,
      turn: 2,
      assistant_text: 'I will rewrite the parser.',
      tool_calls: [call('write_file', { path: 'durations.py', content: fixedModule })],
    },
    { ...template, turn: 3, tool_calls: [call('execute_command', { command: 'python3 -m pytest -q' })] },
  ] as TurnLog[];
  const trials = base.trials.map((t) => ({ ...t, turn_logs: turns, turns: 3, final_answer: 'Fixed it.' }));
  const file = withHash({ ...base, task_version: taskVersion(task), trials } as ResultFile);
  const path = join(dir, 'debug_python_v1__small-model.json');
  await writeFile(path, JSON.stringify(file));
  return path;
}

/** What an author adds to the draft: a description, a read flag and the hidden tests, the lure's miss. */
export function completeDraft(m: Record<string, unknown>): Record<string, unknown> {
  const lures = m.lures as { expect: { unreached: string[] } }[];
  return {
    ...m,
    meta: { ...(m.meta as object), description: 'Fix the duration parser, reading it first.' },
    flags: [
      {
        id: 'file_read',
        kind: 'process',
        description: 'Read durations.py before changing it.',
        read: { file: 'durations.py' },
      },
      {
        id: 'fixed',
        kind: 'outcome',
        description: 'The hidden tests pass.',
        harness_tests: { runner: 'pytest', files: ['hidden/test_hidden_durations.py', 'test_durations.py'] },
      },
    ],
    lures: lures.map((l) => ({ ...l, expect: { unreached: ['file_read'] } })),
  };
}
