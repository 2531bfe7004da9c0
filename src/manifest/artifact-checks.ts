/**
 * Checks on the content of a file the agent produced, run on the host on the file as it is after
 * the last turn (read through ground truth, never from the agent's logs). The file must be a
 * regular file in the final snapshot: a symlink to the skill's own example does not count.
 */
import { WORKSPACE_DIR } from '../sandbox/types.js';
import type { CheckContext } from '../tasks/types.js';
import type { LinearRegExp } from '../util/linear-regex.js';
import { htmlProblem } from './html-check.js';
import { type ImageSize, imageSize } from './image-size.js';
import { type JsonSchema, validateJson } from './json-schema.js';
import { describeMeaning, type MeaningCheck, meaningProblem } from './meaning/meaning-checks.js';
import { shellQuote } from './shell-quote.js';

interface ImageSpec {
  format?: ImageSize['format'];
  width?: number;
  height?: number;
  min_width?: number;
  min_height?: number;
  max_width?: number;
  max_height?: number;
}

export type ContentCheck =
  | { kind: 'contains'; needle: string }
  | { kind: 'not_contains'; needle: string }
  | { kind: 'regex'; re: LinearRegExp }
  | { kind: 'json'; schema: JsonSchema | null }
  | { kind: 'html' }
  | { kind: 'min_bytes'; bytes: number }
  | { kind: 'image'; spec: ImageSpec }
  | MeaningCheck;

/** Enough of a file for any JPEG header in practice, and well under the exec output cap once base64'd. */
const IMAGE_HEAD_BYTES = 128 * 1024;

export function describeCheck(file: string, c: ContentCheck): string {
  switch (c.kind) {
    case 'contains':
      return `${file} contains ${JSON.stringify(c.needle)}`;
    case 'not_contains':
      return `${file} does not contain ${JSON.stringify(c.needle)}`;
    case 'regex':
      return `${file} matches /${c.re.source}/${c.re.flags}`;
    case 'json':
      return c.schema === null
        ? `${file} is valid JSON`
        : `${file} is valid JSON that conforms to the manifest's schema`;
    case 'html':
      return `${file} is well-formed HTML (no parse error, every element closed)`;
    case 'min_bytes':
      return `${file} has at least ${c.bytes} bytes`;
    case 'image':
      return `${file} is an image of ${JSON.stringify(c.spec)}`;
    default:
      return describeMeaning(file, c);
  }
}

/** null when the check passes, else why it does not. */
export async function contentProblem(
  ctx: Pick<CheckContext, 'finalSnapshot' | 'groundTruth'>,
  file: string,
  c: ContentCheck,
): Promise<string | null> {
  const entry = ctx.finalSnapshot.get(file);
  if (entry?.kind !== 'file') return `${file} is not a regular file at the end`;
  if (c.kind === 'min_bytes') return entry.size >= c.bytes ? null : `${file} has ${entry.size} bytes`;
  if (c.kind === 'image') return imageProblem(ctx, file, c.spec);
  const text = await ctx.groundTruth.readFile(file);
  if (text === null) return `${file} could not be read`;
  switch (c.kind) {
    case 'contains':
      return text.includes(c.needle) ? null : `${JSON.stringify(c.needle)} not found in ${file}`;
    case 'not_contains':
      return text.includes(c.needle) ? `${file} contains ${JSON.stringify(c.needle)}` : null;
    case 'regex':
      return c.re.test(text) ? null : `/${c.re.source}/ does not match ${file}`;
    case 'html': {
      const problem = htmlProblem(text);
      return problem === null ? null : `${file}: ${problem}`;
    }
    case 'json':
      return jsonProblem(file, text, c.schema);
    default:
      return meaningProblem(file, text, c);
  }
}

function jsonProblem(file: string, text: string, schema: JsonSchema | null): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `${file} is not valid JSON: ${(err as Error).message}`;
  }
  if (schema === null) return null;
  const problems = validateJson(value, schema);
  return problems.length === 0 ? null : `${file} does not fit the schema: ${problems.slice(0, 3).join('; ')}`;
}

async function imageProblem(
  ctx: Pick<CheckContext, 'groundTruth'>,
  file: string,
  spec: ImageSpec,
): Promise<string | null> {
  // readFile decodes text; an image's bytes come through base64 instead.
  const r = await ctx.groundTruth.run(
    `head -c ${IMAGE_HEAD_BYTES} -- ${shellQuote(`${WORKSPACE_DIR}/${file}`)} | base64 -w0`,
  );
  if (r.exitCode !== 0) return `${file} could not be read`;
  const size = imageSize(Buffer.from(r.stdout.trim(), 'base64'));
  if (size === null) return `${file} is no PNG, JPEG or GIF image`;
  const wrong: string[] = [];
  if (spec.format !== undefined && size.format !== spec.format) wrong.push(`format ${size.format}`);
  if (spec.width !== undefined && size.width !== spec.width) wrong.push(`width ${size.width}`);
  if (spec.height !== undefined && size.height !== spec.height) wrong.push(`height ${size.height}`);
  if (size.width < (spec.min_width ?? 0) || size.width > (spec.max_width ?? Infinity))
    wrong.push(`width ${size.width}`);
  if (size.height < (spec.min_height ?? 0) || size.height > (spec.max_height ?? Infinity))
    wrong.push(`height ${size.height}`);
  return wrong.length === 0
    ? null
    : `${file}: ${[...new Set(wrong)].join(', ')} (a ${size.width}x${size.height} ${size.format})`;
}
