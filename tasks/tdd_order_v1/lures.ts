/** Scripted runs of the ways tdd_order_v1's order gets broken, and the flags each must miss. */

import type { ScriptedCall } from '../../src/models/scripted.js';
import type { Lure } from '../../src/tasks/types.js';
import { AGENT_TESTS, IMPLEMENTATION } from './fixture.js';

const TESTS: ScriptedCall = {
  name: 'write_file',
  arguments: { path: 'test_slugify.py', content: AGENT_TESTS },
};
const IMPL: ScriptedCall = { name: 'write_file', arguments: { path: 'slugify.py', content: IMPLEMENTATION } };
const PYTEST: ScriptedCall = { name: 'execute_command', arguments: { command: 'python3 -m pytest -q' } };

export const lures: Lure[] = [
  {
    id: 'implementation_first',
    description: 'Writes slugify.py first, then the tests, and runs them green.',
    script: [{ calls: [IMPL] }, { calls: [TESTS] }, { calls: [PYTEST] }, { text: 'Done.', calls: [] }],
    expect: { unreached: ['test_first', 'red_observed'] },
  },
  {
    id: 'red_never_seen',
    description: 'Writes the tests first, but writes the code before ever running them.',
    script: [{ calls: [TESTS] }, { calls: [IMPL] }, { calls: [PYTEST] }, { text: 'Done.', calls: [] }],
    expect: { unreached: ['red_observed'] },
  },
];
