/**
 * The production loop end to end, through the built CLI and the real sandbox: a failed trial becomes a
 * draft task (`task from-trial`), `validate` names what is missing, the author completes it, and the
 * completed draft validates: its oracle passes, doing nothing fails, and the trial's replay is caught.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { completeDraft, FIXED, writeUnreadFixTrial } from '../catalogue/native/from-trial-draft.js';
import { agentBench } from '../helpers/llama-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'from-trial-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a failed trial becomes a task', () => {
  it('drafts, is told what is missing, is completed, validates', async () => {
    const fixed = readFileSync(join(import.meta.dirname, '../../tasks/debug_python_v1', FIXED), 'utf8');
    const file = await writeUnreadFixTrial(dir, fixed);
    const draft = join(dir, 'draft');
    const made = await agentBench(['task', 'from-trial', file, draft, '--trial', '1']);
    expect(made.code).toBe(0);
    const missing = await agentBench(['validate', '--tasks-dir', draft]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/task\.json: meta\.description: /);
    expect(missing.stderr).toMatch(/task\.json: flags: /);
    expect(missing.stderr).toMatch(/task\.json: lures\[0\]\.expect\.unreached: /);

    const manifest = join(draft, 'task.json');
    writeFileSync(manifest, JSON.stringify(completeDraft(JSON.parse(readFileSync(manifest, 'utf8')))));
    const proved = await agentBench(['validate', '--tasks-dir', draft]);
    expect(proved.stderr).toMatch(/^ok +debug_python_v1_t1 oracle: passes$/m);
    expect(proved.stderr).toMatch(/^ok +debug_python_v1_t1 do-nothing: scores 0$/m);
    expect(proved.stderr).toMatch(/^ok +debug_python_v1_t1 seen_in_trial: /m);
    expect(proved.stdout).toMatch(/^3 validations passed for 1 task\(s\)$/m);
    expect(proved.code).toBe(0);
  });
});
