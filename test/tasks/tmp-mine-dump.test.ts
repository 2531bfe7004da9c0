import { it } from 'vitest';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { getTask } from '../../tasks/index.js';
import { runLocally } from './local-trial.js';

it('dump', async () => {
  for (const id of ['debug_python_v1', 'tdd_order_v1', 'context_manage_v1', 'doc_trap_v1', 'wrong_fix_trap_v1', 'tdd_strict_v1', 'big_file_edit_v1', 'long_procedure_v1']) {
    const t = getTask(id);
    if (t === undefined) continue;
    for (const l of [{ id: 'oracle', script: t.referenceSolution }, { id: 'nothing', script: [] }, ...(t.lures ?? [])]) {
      if (l.id === 'pathless_write') continue;
      const trial = runLocally(t, l.script);
      const out: string[] = [];
      for (const f of t.flags) {
        const o = await f.check(trial.ctx);
        out.push(o.reached ? `+${f.id}` : `-${f.id}(${o.detail})`);
      }
      const tamper = detectTamper(trial.setup, trial.final, t).map((v) => v.path);
      console.log(`${t.id} ${l.id}: ${out.join(' ')} tamper=${tamper.join(',')}`);
      trial.cleanup();
    }
  }
}, 300000);
