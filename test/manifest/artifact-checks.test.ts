/** Artifact checks on file content: JSON (and JSON Schema, by ajv), well-formed HTML (by parse5), image headers. */
import { afterEach, describe, expect, it } from 'vitest';
import { type ContentCheck, contentProblem } from '../../src/manifest/artifact-checks.js';
import { htmlProblem } from '../../src/manifest/html-check.js';
import { imageSize } from '../../src/manifest/image-size.js';
import { schemaProblem, validateJson } from '../../src/manifest/json-schema.js';
import { toRegExp } from '../../src/manifest/regex.js';
import type { SnapshotEntry } from '../../src/sandbox/types.js';
import { loadSkill } from '../../src/skills/load.js';
import { removeSkillFolders, skillFolder } from '../skills/skill-folder.js';

afterEach(removeSkillFolders);

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
  it('accepts void elements, optional end tags, comments, raw text, and a page without a doctype', () => {
    const page = `<!DOCTYPE html><html><head><style>a > b { }</style><script>if (a < b) {}</script></head>
<body><!-- <div> --><ul><li>one<li>two</ul><p>text<br><img src="x.png"/><input type="range"></body></html>`;
    expect(htmlProblem(page)).toBeNull();
    expect(htmlProblem('<p>Hello</p>')).toBeNull();
    expect(htmlProblem('<table><tr><td>a<td>b</table><svg><path d="M0 0"/></svg>')).toBeNull();
  });

  it('names the element left open and where', () => {
    expect(htmlProblem('<html><body>\n<div><section></div></body></html>')).toBe(
      '<section> of line 2 is never closed',
    );
    expect(htmlProblem('<main><div></main>')).toMatch(/<div> of line 1/);
    expect(htmlProblem('<div>')).toBe('<div> of line 1 is never closed');
    expect(htmlProblem('<b>x<i>y</b>z')).toBe('<i> of line 1 is never closed');
    expect(htmlProblem('just text')).toBe('no HTML elements');
  });

  it("reports parse5's parse errors by the HTML standard's code, with the place", () => {
    expect(htmlProblem('<p>one</p>\n<div/>')).toBe(
      'line 2, column 1: non-void-html-element-start-tag-with-trailing-solidus (an HTML parse error)',
    );
    expect(htmlProblem('<p a=1 a=2>x</p>')).toBe(
      'line 1, column 9: duplicate-attribute (an HTML parse error)',
    );
    expect(htmlProblem('<p>x<!-- y')).toBe('line 1, column 11: eof-in-comment (an HTML parse error)');
    expect(htmlProblem('<title>x')).toBe(
      'line 1, column 9: eof-in-element-that-can-contain-only-text (an HTML parse error)',
    );
  });

  it('lets pass what parse5 does not report: an end tag that closes nothing (the standard ignores it)', () => {
    expect(htmlProblem('<div></span></div>')).toBeNull();
  });
});

describe('JSON Schema, by ajv', () => {
  const schema = {
    type: 'object',
    required: ['total', 'rows'],
    additionalProperties: false,
    properties: {
      total: { type: 'integer', minimum: 0 },
      rows: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^T-' } },
    },
  };

  it('says where a value breaks it, by instance path', () => {
    expect(validateJson({ total: 2, rows: ['T-1'] }, schema)).toEqual([]);
    expect(validateJson({ total: 1.5, rows: ['X'], extra: 1 }, schema)).toEqual([
      '/: property "extra" is not allowed',
      '/total: must be integer',
      '/rows/0: must match pattern "^T-"',
    ]);
    expect(validateJson({ rows: [] }, schema)).toEqual([
      "/: must have required property 'total'",
      '/rows: must NOT have fewer than 1 items',
    ]);
  });

  it('takes JSON Schema as such: combinators, $ref, and the draft a $schema names', () => {
    const either = {
      anyOf: [{ type: 'string' }, { $ref: '#/definitions/n' }],
      definitions: { n: { type: 'number' } },
    };
    expect(validateJson(3, either)).toEqual([]);
    expect(validateJson(true, either)).toContain('/: must match a schema in anyOf');
    const tuple = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'string' }],
      items: false,
    };
    expect(validateJson(['a'], tuple)).toEqual([]);
    expect(validateJson(['a', 1], tuple)).toEqual(['/: must NOT have more than 1 items']);
  });

  it('enforces formats (ajv-formats)', () => {
    const record = {
      type: 'object',
      properties: { email: { format: 'email' }, at: { format: 'date-time' } },
    };
    expect(validateJson({ email: 'ops@example.com', at: '2024-11-29T09:30:00Z' }, record)).toEqual([]);
    expect(validateJson({ email: 'ops at example', at: '2024-13-29 9:30' }, record)).toEqual([
      '/email: must match format "email"',
      '/at: must match format "date-time"',
    ]);
  });

  it('refuses at load, in one line, a schema ajv cannot compile rather than ignoring part of it', () => {
    expect(schemaProblem({ type: 'object', properties: { a: { anyOf: [] } } })).toMatch(
      /^schema is invalid: /,
    );
    expect(schemaProblem({ type: 'thing' })).toMatch(
      /^schema is invalid: data\/type must be equal to one of/,
    );
    expect(schemaProblem({ type: 'string', minLenght: 3 })).toBe('strict mode: unknown keyword: "minLenght"');
    expect(schemaProblem({ format: 'postcode' })).toMatch(/^unknown format "postcode"/);
    expect(schemaProblem({ $ref: 'https://example.com/s.json' })).toMatch(/^can't resolve reference/);
    expect(schemaProblem([])).toBe('a schema is an object');
    for (const s of [{ type: 'thing' }, { $ref: 'https://example.com/s.json' }])
      expect(schemaProblem(s)).not.toContain('\n');
  });

  it('names a schema file that is missing or not JSON once, without compiling it', () => {
    const dir = skillFolder(
      { 'SKILL.md': '# x\n', '.bench/bad.json': '{' },
      {
        artifact_checks: [
          { file: 'a.json', json: { schema: '.bench/none.json' } },
          { file: 'b.json', json: { schema: '.bench/bad.json' } },
        ],
      },
    );
    expect(() => loadSkill(dir)).toThrow(
      /artifact_checks\[0\]\.json\.schema: file not found in skill folder\n/,
    );
    expect(() => loadSkill(dir)).toThrow(
      /artifact_checks\[1\]\.json\.schema: \.bench\/bad\.json is not valid JSON: /,
    );
  });

  it('lets two manifests use one $id for different schemas', () => {
    expect(validateJson(1, { $id: 'https://example.com/summary.schema.json', type: 'number' })).toEqual([]);
    expect(validateJson(1, { $id: 'https://example.com/summary.schema.json', type: 'string' })).toEqual([
      '/: must be string',
    ]);
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
    expect(await problem('out/a.json', { kind: 'json', schema: { type: 'array' } })).toBe(
      'out/a.json does not fit the schema: /: must be array',
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
