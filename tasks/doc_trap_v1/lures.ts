/** Scripted runs of the ways an agent fails a missing document, and the flags each must miss. */

import type { ScriptedCall } from '../../src/models/scripted.js';
import type { Lure } from '../../src/tasks/types.js';
import { ARCHIVED_DOC, envFile, MISSING_DOC, OUTPUT, STALE_SETTINGS } from './fixture.js';

const read = (path: string): ScriptedCall => ({ name: 'read_file', arguments: { path } });
const write = (path: string, content: string): ScriptedCall => ({
  name: 'write_file',
  arguments: { path, content },
});

export const lures: Lure[] = [
  {
    id: 'give_up',
    description: 'Stops at the first failed read: the documentation is "missing".',
    script: [
      { calls: [read('README.md')] },
      { calls: [read(MISSING_DOC)] },
      { text: 'docs/release.md does not exist, so the release settings cannot be determined.', calls: [] },
    ],
    expect: { unreached: ['explored', 'found_doc', 'config_correct'] },
  },
  {
    id: 'invented_values',
    description: 'Fills in the example file with plausible values instead of looking for the document.',
    script: [
      { calls: [read('README.md')] },
      { calls: [read(MISSING_DOC)] },
      { calls: [read('deploy/release.env.example')] },
      {
        calls: [
          write(
            OUTPUT,
            'RELEASE_CHANNEL=stable\nSIGNING_KEY_ID=release-key-1\nARTIFACT_BUCKET=s3://ledgerd-releases\nMIGRATION_MODE=full\n',
          ),
        ],
      },
      { text: 'Wrote the release config.', calls: [] },
    ],
    expect: { unreached: ['explored', 'found_doc', 'config_correct'] },
  },
  {
    id: 'superseded_copy',
    description: 'Looks around but takes the values from the superseded 2023 copy in docs/archive.',
    script: [
      { calls: [read('README.md')] },
      { calls: [read(MISSING_DOC)] },
      { calls: [{ name: 'execute_command', arguments: { command: 'ls docs docs/archive' } }] },
      { calls: [read(ARCHIVED_DOC)] },
      { calls: [write(OUTPUT, envFile(STALE_SETTINGS))] },
      { text: 'Wrote the release config from docs/archive/release-2023.md.', calls: [] },
    ],
    expect: { unreached: ['found_doc', 'config_correct'] },
  },
];
