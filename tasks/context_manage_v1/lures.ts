/** Scripted runs of the ways context_manage_v1 goes wrong, and the flags each must miss. */

import type { ScriptedCall } from '../../src/models/scripted.js';
import type { Lure } from '../../src/tasks/types.js';
import { fixedService, STALE_MODULES, servicePath } from './fixture.js';

const SEARCH: ScriptedCall = {
  name: 'execute_command',
  arguments: { command: `grep -rnE "TAX|0\\.07\\b|tax_rate" --include='*.py' services/` },
};
const fix = (module: string): ScriptedCall => ({
  name: 'write_file',
  arguments: { path: servicePath(module), content: fixedService(module) },
});
const read = (path: string): ScriptedCall => ({ name: 'read_file', arguments: { path } });

export const lures: Lure[] = [
  {
    id: 'partial_fix',
    description: 'Finds the stale modules but fixes only the first two.',
    script: [
      { calls: [SEARCH] },
      { calls: STALE_MODULES.slice(0, 2).map(fix) },
      { text: 'Fixed.', calls: [] },
    ],
    expect: { unreached: ['consistency_fixed'] },
  },
  {
    id: 'read_loop',
    description: 'Fixes every module, but reads config.py again and again on the way.',
    script: [
      { calls: [read('config.py')] },
      { calls: [SEARCH, read('config.py')] },
      { calls: [read('./config.py')] },
      { calls: [read('/workspace/config.py')] },
      { calls: STALE_MODULES.map(fix) },
      { text: 'Fixed.', calls: [] },
    ],
    expect: { unreached: ['no_read_loops'] },
  },
];
