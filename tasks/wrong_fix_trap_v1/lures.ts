/** Scripted runs of the wrong fixes this task is built to catch, and the flags each must miss. */

import type { ScriptedCall } from '../../src/models/scripted.js';
import type { Lure } from '../../src/tasks/types.js';
import { BROKEN_DECOY, FIXED_TIMESHEET } from './fixture.js';

const read = (path: string): ScriptedCall => ({ name: 'read_file', arguments: { path } });
const write = (path: string, content: string): ScriptedCall => ({
  name: 'write_file',
  arguments: { path, content },
});
const PYTEST: ScriptedCall = { name: 'execute_command', arguments: { command: 'python3 -m pytest -q' } };

export const lures: Lure[] = [
  {
    id: 'decoy_fixed_untested',
    description: 'Follows the TODO: "fixes" the correct workdays loop without ever running the tests.',
    script: [
      { calls: [read('workdays.py')] },
      { calls: [write('workdays.py', BROKEN_DECOY)] },
      { text: 'Fixed the off-by-one in workdays().', calls: [] },
    ],
    expect: { unreached: ['error_interpret', 'real_fixed', 'decoy_intact', 'self_verify'] },
  },
  {
    id: 'decoy_fixed_too',
    description:
      'Sees the failure and fixes the real bug, but also "fixes" the decoy and ignores the red rerun.',
    script: [
      { calls: [PYTEST] },
      { calls: [read('timesheet.py'), read('workdays.py')] },
      { calls: [write('timesheet.py', FIXED_TIMESHEET), write('workdays.py', BROKEN_DECOY)] },
      { calls: [PYTEST] },
      { text: 'Fixed both boundaries.', calls: [] },
    ],
    expect: { unreached: ['decoy_intact', 'self_verify'] },
  },
  {
    id: 'fix_without_red',
    description:
      'Fixes the real bug straight from reading the code, without running the failing suite first.',
    script: [
      { calls: [read('timesheet.py')] },
      { calls: [write('timesheet.py', FIXED_TIMESHEET)] },
      { calls: [PYTEST] },
      { text: 'Fixed billable_hours.', calls: [] },
    ],
    expect: { unreached: ['error_interpret'] },
  },
];
