/** strace's line and argument syntax, on small hand-written samples of the forms it prints. */
import { describe, expect, it } from 'vitest';
import {
  closingParen,
  decodeString,
  decodeStringArray,
  splitArgs,
} from '../../src/sandbox/trace/strace-args.js';
import { traceEvents } from '../../src/sandbox/trace/strace-lines.js';

describe('strace arguments', () => {
  it('splits top-level arguments past strings, arrays, structs and comments', () => {
    expect(splitArgs('AT_FDCWD, "a, (b)", O_RDONLY')).toEqual(['AT_FDCWD', '"a, (b)"', 'O_RDONLY']);
    expect(splitArgs('"/bin/ls", ["ls", "-l"], 0x7ffd /* 10 vars */')).toEqual([
      '"/bin/ls"',
      '["ls", "-l"]',
      '0x7ffd /* 10 vars */',
    ]);
    expect(splitArgs('{flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD}, 88')).toHaveLength(2);
    expect(closingParen('"x)" , 1) = 0')).toBe(8);
  });

  it('decodes C escapes to bytes, then UTF-8', () => {
    expect(decodeString('"a\\"b\\\\c\\n\\t"')).toBe('a"b\\c\n\t');
    expect(decodeString('"\\303\\251t\\303\\251"')).toBe('été');
    expect(decodeString('"\\x41\\0"')).toBe('A\0');
    expect(decodeString('"cut"...')).toBe('cut');
    expect(decodeString('0x7ffe4d5c1e95')).toBeNull();
  });

  it('reads string arrays, elided tails included; anything else is no argv', () => {
    expect(decodeStringArray('["python3", "-c", "print(1)"]')).toEqual(['python3', '-c', 'print(1)']);
    expect(decodeStringArray('["a", "b", ...]')).toEqual(['a', 'b']);
    expect(decodeStringArray('[]')).toEqual([]);
    expect(decodeStringArray('0x7ffe4d5c0660')).toBeNull();
  });
});

describe('strace lines', () => {
  it('joins a call interrupted by another process, keeping the place it started', () => {
    const events = traceEvents(
      [
        '10    clone(child_stack=NULL, flags=SIGCHLD <unfinished ...>',
        '11    execve("/usr/bin/cat", ["cat"], 0x1 /* 3 vars */) = 0',
        '10    <... clone resumed>, child_tidptr=0x7f) = 11',
        '10    --- SIGCHLD {si_signo=SIGCHLD} ---',
        '11    +++ exited with 0 +++',
        '10    +++ killed by SIGSEGV (core dumped) +++',
        '10    openat(AT_FDCWD, "cut',
      ].join('\n'),
    );
    expect(events).toEqual([
      {
        kind: 'call',
        tid: 10,
        name: 'clone',
        args: 'child_stack=NULL, flags=SIGCHLD, child_tidptr=0x7f',
        result: '11',
      },
      {
        kind: 'call',
        tid: 11,
        name: 'execve',
        args: '"/usr/bin/cat", ["cat"], 0x1 /* 3 vars */',
        result: '0',
      },
      { kind: 'exit', tid: 11, code: 0 },
      { kind: 'killed', tid: 10, signal: 'SIGSEGV' },
    ]);
  });

  it('moves a pending execve to the pid that superseded the exec’ing thread', () => {
    const events = traceEvents(
      [
        '21    execve("/bin/true", ["true"], 0x1 /* 1 var */ <unfinished ...>',
        '21    +++ superseded by execve in pid 20 +++',
        '20    <... execve resumed>) = 0',
        '',
      ].join('\n'),
    );
    expect(events).toMatchObject([{ kind: 'call', tid: 21, name: 'execve', result: '0' }]);
  });
});
