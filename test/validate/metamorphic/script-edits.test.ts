import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../../src/models/scripted.js';
import {
  heredocWrite,
  shellQuote,
  withContentAt,
  withRemovalAt,
} from '../../../src/validate/metamorphic/script-edits.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What a bash running `command` in a fresh folder leaves in `file`. */
function written(command: string, file: string): string {
  dir = mkdtempSync(join(tmpdir(), 'ab-heredoc-'));
  const run = spawnSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(join(dir, file), 'utf8');
}

describe('heredocWrite', () => {
  it.each([
    ['a last newline', 'one\ntwo\n'],
    ['no last newline', 'one\ntwo'],
    ['nothing', ''],
    ['its own delimiter and quotes', "AB_EOF_0\nit's $HOME `x`\n"],
  ])('writes the exact bytes: %s', (_, content) => {
    expect(written(heredocWrite(shellQuote('out.txt'), content), 'out.txt')).toBe(content);
  });

  it('runs what follows it on its first line (a rename), not after the body', () => {
    const command = heredocWrite(shellQuote('t.tmp'), 'x = 1\n', ` && mv 't.tmp' 'x.py'`);
    expect(written(command, 'x.py')).toBe('x = 1\n');
  });
});

describe('script edits', () => {
  const script: ScriptedTurn[] = [
    { calls: [{ name: 'read_file', arguments: { path: 'a.py' } }] },
    { text: 'fix', calls: [{ name: 'write_file', arguments: { path: 'a.py', content: 'right' } }] },
    { calls: [{ name: 'execute_command', arguments: { command: 'pytest' } }] },
  ];

  it("puts a mutant in place of the reference's own write of the file, before the runs after it", () => {
    const out = withContentAt(script, 2, 'a.py', 'wrong');
    expect(out[1]?.calls).toEqual([
      { name: 'write_file', arguments: { path: '/workspace/a.py', content: 'wrong' } },
    ]);
    expect(out[2]).toEqual(script[2]);
    // The reference itself is untouched.
    expect(script[1]?.calls[0]?.arguments.content).toBe('right');
  });

  it('adds the write at the end of the turn when a command changed the file', () => {
    const out = withContentAt(script, 3, 'b.py', 'x');
    expect(out[2]?.calls.map((c) => c.name)).toEqual(['execute_command', 'write_file']);
    expect(withRemovalAt(script, 3, "it's.txt")[2]?.calls[1]?.arguments).toEqual({
      command: `rm -f '/workspace/it'\\''s.txt'`,
    });
  });
});
