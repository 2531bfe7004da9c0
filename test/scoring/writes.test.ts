import { describe, expect, it } from 'vitest';
import { callSteps } from '../../src/scoring/commands.js';
import { mayWrite, type WriteSet } from '../../src/scoring/writes.js';
import { readFile, shell, writeFile } from './call-fixtures.js';

const writes = (command: string): WriteSet[] => callSteps(shell(command)).map((s) => s.writes);

describe('what a step may have written', () => {
  it.each<[string, WriteSet[]]>([
    ['cat main.py', [[]]],
    ['python3 -m pytest -q', [[]]],
    ["sed -i 's/a/b/' main.py", [['/workspace/main.py']]],
    ["sed -n '1p' main.py", [[]]],
    ['echo x > notes.txt', [['/workspace/notes.txt']]],
    ['echo x >> /tmp/log 2>&1', [['/tmp/log']]],
    ['echo x > /dev/null', [[]]],
    ['cp a.py b.py', [['/workspace/a.py', '/workspace/b.py']]],
    ['rm -rf build', [['/workspace/build']]],
    ['cat > main.py <<EOF\nprint(1)\nEOF', [['/workspace/main.py']]],
    ['python3 fix.py', ['any']],
    ['echo x > "$OUT"', ['any']],
    ['touch *.py', ['any']],
    ['cd sub && tee out.txt', [[], ['/workspace/sub/out.txt']]],
  ])('%s', (command, expected) => {
    expect(writes(command)).toEqual(expected);
  });

  it('write_file writes its path unless it failed; read_file writes nothing', () => {
    expect(callSteps(writeFile('a/../m.py', 'x'))[0]?.writes).toEqual(['/workspace/m.py']);
    expect(callSteps(writeFile('m.py', 'x', { exit: 1 }))[0]?.writes).toEqual([]);
    expect(callSteps(readFile('m.py'))[0]?.writes).toEqual([]);
  });

  it('a written directory covers what is below it', () => {
    expect(mayWrite(['/workspace/build'], '/workspace/build/x.py')).toBe(true);
    expect(mayWrite(['/workspace/build'], '/workspace/builder.py')).toBe(false);
    expect(mayWrite('any', '/workspace/x')).toBe(true);
  });
});
