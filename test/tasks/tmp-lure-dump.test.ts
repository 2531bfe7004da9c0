import { it } from 'vitest';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { debugJsV1 } from '../../tasks/debug_js_v1/index.js';
import { refactorExtractJsV1 } from '../../tasks/refactor_extract_js_v1/index.js';
import { tddStrictJsV1 } from '../../tasks/tdd_strict_js_v1/index.js';
import { runLocally } from './local-trial.js';

it('dump', async () => {
  for (const t of [debugJsV1, tddStrictJsV1, refactorExtractJsV1]) {
    for (const l of t.lures ?? []) {
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
