/** --resume of a dialogue task continues only a result played by the same simulated user. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLEAN } from '../../src/results/condition.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { withHash } from '../../src/results/store.js';
import type { DialogueRecord, SimulatedUserRecord } from '../../src/results/trial.js';
import { findResumable } from '../../src/run/resume.js';
import { PASS, result } from '../helpers/result-builder.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'resume-user-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const LLM_USER: SimulatedUserRecord = { kind: 'llm', model: 'user-model', base_url: null, temperature: 0.7 };

async function writeDialogueResult(name: string, user: SimulatedUserRecord): Promise<ResultFile> {
  const { result_hash: _, ...base } = result({ task: 'helpdesk_x', model: 'm', trials: [PASS] });
  const dialogue: DialogueRecord = {
    dimension: 'priority',
    opening: 'hi',
    user,
    end: 'user_ended',
    state_changes: [],
    final_state: {},
    user_usage: { prompt_tokens: 0, completion_tokens: 0 },
  };
  const file = withHash({ ...base, trials: base.trials.map((t) => ({ ...t, dialogue })) } as ResultFile);
  await writeFile(join(dir, name), JSON.stringify(file));
  return file;
}

describe('resuming a dialogue task', () => {
  it('takes the result of the same user, never one another user played', async () => {
    const scripted = await writeDialogueResult('a.json', { kind: 'scripted' });
    const find = (user?: SimulatedUserRecord) =>
      findResumable(dir, 'helpdesk_x', 'm', scripted.task_version, scripted.settings, CLEAN, undefined, user);
    expect((await find())?.run_id).toBe(scripted.run_id);
    expect(await find(LLM_USER)).toBeNull();
    await rm(join(dir, 'a.json'));
    const played = await writeDialogueResult('b.json', LLM_USER);
    expect((await find(LLM_USER))?.run_id).toBe(played.run_id);
    expect(await find({ ...LLM_USER, temperature: 0 })).toBeNull();
    expect(await find()).toBeNull();
  });
});
