/** Artifact checks on file content: JSON (and a schema subset), well-formed HTML, image headers. */
import { describe, expect, it } from 'vitest';
import type { SnapshotEntry } from '../../src/sandbox/types.js';
import { type ContentCheck, contentProblem } from '../../src/skills/artifact-checks.js';
import { htmlProblem } from '../../src/skills/html-check.js';
import { imageSize } from '../../src/skills/image-size.js';
import { schemaProblems, validateJson } from '../../src/skills/json-schema.js';
import { toRegExp } from '../../src/skills/regex.js';

function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), ihdr]);
}

function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from('ffe000104a46494600010100000100010000', 'hex');
  const sof = Buffer.from([
    0xff,
    0xc0,
    0,
    11,
    8,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    1,
    1,
    0x11,
    0,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof]);
}

describe('image headers', () => {
  it('reads PNG, JPEG and GIF sizes, and refuses anything else', () => {
    expect(imageSize(png(1280, 800))).toEqual({ format: 'png', width: 1280, height: 800 });
    expect(imageSize(jpeg(640, 480))).toEqual({ format: 'jpeg', width: 640, height: 480 });
    expect(imageSize(Buffer.from('GIF89a\x10\x00\x20\x00', 'latin1'))).toEqual({
      format: 'gif',
      width: 16,
      height: 32,
    });
    expect(imageSize(Buffer.from('PNG'))).toBeNull();
    expect(imageSize(Buffer.from('%PDF-1.4'))).toBeNull();
  });
});

describe('well-formed HTML', () => {
  it('accepts void elements, optional end tags, comments and raw text', () => {
    const page = `<!DOCTYPE html><html><head><style>a > b { }</style><script>if (a < b) {}</script></head>
<body><!-- <div> --><ul><li>one<li>two</ul><p>text<br><img src="x.png"/><input type="range"></body></html>`;
    expect(htmlProblem(page)).toBeNull();
  });

  it('names the element left open and where', () => {
    expect(htmlProblem('<html><body>\n<div><section></div></body></html>')).toBe(
      'line 2: </div> closes <section> of line 2, which was never closed',
    );
    expect(htmlProblem('<main><div></main>')).toMatch(/<div> of line 1/);
    expect(htmlProblem('<div></span></div>')).toBe('line 1: </span> closes nothing');
    expect(htmlProblem('<div>')).toBe('<div> of line 1 is never closed');
    expect(htmlProblem('just text')).toBe('no HTML elements');
  });
});

describe('JSON schema subset', () => {
  const schema = {
    type: 'object',
    required: ['total', 'rows'],
    additionalProperties: false,
    properties: {
      total: { type: 'integer', minimum: 0 },
      rows: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^T-' } },
    },
  };

  it('says where a value breaks it', () => {
    expect(validateJson({ total: 2, rows: ['T-1'] }, schema)).toEqual([]);
    expect(validateJson({ total: 1.5, rows: ['X'], extra: 1 }, schema)).toEqual([
      '$.total: expected integer',
      '$.rows[0]: does not match ^T-',
      '$.extra: not allowed',
    ]);
    expect(validateJson({ rows: [] }, schema)).toEqual(['$.total: missing', '$.rows: fewer than 1 items']);
  });

  it('refuses keywords it does not implement rather than ignoring them', () => {
    expect(schemaProblems({ type: 'object', properties: { a: { anyOf: [] } } })).toEqual([
      '#/properties/a: unsupported keyword "anyOf"',
    ]);
    expect(schemaProblems({ type: 'thing' })).toEqual(['#/type: unknown type "thing"']);
  });
});

describe('content problems, on the file as it is at the end', () => {
  const files: Record<string, string> = { 'out/a.json': '{"total": 3}', 'out/page.html': '<p>Hello</p>' };
  const entry = (size: number): SnapshotEntry => ({ kind: 'file', sha256: 'x', size, mode: 0o644 });
  const ctx = {
    finalSnapshot: new Map<string, SnapshotEntry>([
      ['out/a.json', entry(12)],
      ['out/page.html', entry(12)],
      ['out/link.html', { kind: 'symlink', target: '../skill/reference.html' }],
      ['out/pic.png', entry(24)],
    ]),
    groundTruth: {
      readFile: async (p: string) => files[p] ?? null,
      run: async () => ({
        exitCode: 0,
        stdout: png(1280, 800).toString('base64'),
        stderr: '',
        stdoutCutBytes: 0,
        stderrCutBytes: 0,
        timedOut: false,
        elapsedMs: 0,
      }),
    },
  };
  const problem = (file: string, check: ContentCheck) => contentProblem(ctx, file, check);

  it('passes and fails each kind with a reason', async () => {
    expect(
      await problem('out/a.json', { kind: 'json', schema: { type: 'object', required: ['total'] } }),
    ).toBeNull();
    expect(await problem('out/a.json', { kind: 'json', schema: { type: 'array' } })).toMatch(
      /expected array/,
    );
    expect(await problem('out/page.html', { kind: 'json', schema: null })).toMatch(/not valid JSON/);
    expect(await problem('out/page.html', { kind: 'contains', needle: 'Hello' })).toBeNull();
    expect(await problem('out/page.html', { kind: 'not_contains', needle: 'Hello' })).toMatch(/contains/);
    expect(await problem('out/page.html', { kind: 'regex', re: toRegExp('<p>\\w+</p>') })).toBeNull();
    expect(await problem('out/page.html', { kind: 'regex', re: toRegExp('<p>\\d+</p>') })).toBe(
      '/<p>\\d+<\\/p>/ does not match out/page.html',
    );
    expect(await problem('out/page.html', { kind: 'html' })).toBeNull();
    expect(await problem('out/page.html', { kind: 'min_bytes', bytes: 13 })).toBe(
      'out/page.html has 12 bytes',
    );
    expect(
      await problem('out/pic.png', { kind: 'image', spec: { format: 'png', width: 1280, height: 800 } }),
    ).toBeNull();
    expect(await problem('out/pic.png', { kind: 'image', spec: { min_width: 1920 } })).toMatch(/width 1280/);
  });

  it('refuses a file that is missing or a symlink (to the skill example, say)', async () => {
    expect(await problem('out/none.html', { kind: 'html' })).toMatch(/not a regular file/);
    expect(await problem('out/link.html', { kind: 'contains', needle: 'x' })).toMatch(/not a regular file/);
  });
});
