import { describe, expect, it } from 'vitest';
import { outputLines, stripAnsi } from '../../src/evidence/output-lines.js';
import { capHeadTail } from '../../src/util/text-cap.js';

describe('outputLines', () => {
  it('gives no line for no output, and no extra line for a final newline', () => {
    expect(outputLines('')).toEqual([]);
    expect(outputLines('a\nb\n').map((l) => l.text)).toEqual(['a', 'b']);
  });

  it('drops colour codes and CR line ends', () => {
    expect(outputLines('\u001b[31mred\u001b[0m\r\nplain\r\n').map((l) => l.text)).toEqual(['red', 'plain']);
    expect(stripAnsi('\u001b]8;;http://x\u0007link\u001b]8;;\u0007 \u001b[1;32mok\u001b[m')).toBe('link ok');
  });

  it("removes text-cap's marker and marks the lines on both sides as possibly partial", () => {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const capped = capHeadTail(text, 50).text;
    const lines = outputLines(capped);
    expect(lines.some((l) => l.text.includes('cut from the middle'))).toBe(false);
    const cutAt = lines.findIndex((l) => l.cutBefore);
    expect(cutAt).toBeGreaterThan(0);
    expect(lines[cutAt - 1]?.fragment).toBe(true);
    expect(lines[cutAt]?.fragment).toBe(true);
    expect(lines.filter((l) => l.fragment)).toHaveLength(2);
    expect(lines.filter((l) => l.cutBefore)).toHaveLength(1);
  });

  it("removes the sandbox's byte-cut marker the same way", () => {
    const lines = outputLines(
      'head\npar\n[... 120 bytes cut from the middle of this output ...]\ntial\ntail\n',
    );
    expect(lines.map((l) => [l.text, l.fragment, l.cutBefore])).toEqual([
      ['head', false, false],
      ['par', true, false],
      ['tial', true, true],
      ['tail', false, false],
    ]);
  });

  it("treats read_file's note as the end of a partial read, and a read from an offset as starting mid-line", () => {
    const note =
      '[read_file: showing bytes 100-200 of 900. Call read_file with {"path": "a", "offset": 200} to read more.]';
    const lines = outputLines(`ine one\nline two\nline thr\n${note}`);
    expect(lines.map((l) => [l.text, l.fragment])).toEqual([
      ['ine one', true],
      ['line two', false],
      ['line thr', true],
    ]);
    const fromStart = outputLines(`one\ntw\n${note.replace('100-200', '0-200')}`);
    expect(fromStart.map((l) => l.fragment)).toEqual([false, true]);
    expect(fromStart.some((l) => l.cutBefore)).toBe(false);
  });

  it('keeps a marker-like text inside a longer line as ordinary output', () => {
    const lines = outputLines('say [... 3 bytes cut from the middle of this output ...] ok');
    expect(lines).toEqual([
      {
        text: 'say [... 3 bytes cut from the middle of this output ...] ok',
        fragment: false,
        cutBefore: false,
      },
    ]);
  });
});
