/**
 * A Harbor task's Dockerfile made buildable by any engine's classic builder (the engine API's
 * build, which knows no BuildKit syntax), with BuildKit's meaning kept:
 *  - `RUN <<EOF` (the heredoc alone): its body becomes a script in the build context, copied in and
 *    run by the stage's shell (`<<-` tabs stripped), or executed itself when it starts with `#!`;
 *  - a RUN with a command and heredocs (`RUN python3 <<EOF`, several heredocs): the command line
 *    and the bodies, as BuildKit hands them to the shell, become that script; the shell then does
 *    what it does with `<<-` and quoted delimiters;
 *  - `COPY <<EOF dest` (and ADD): each body becomes a file of the context named by its delimiter,
 *    expanded as BuildKit does for an unquoted delimiter (build-variables.ts);
 *  - `# syntax=` is dropped (the frontend it names would be pulled), as are `RUN --mount=type=cache`
 *    and `COPY --link`, which change how a build is cached, not what it makes.
 * Other BuildKit-only syntax (secret and ssh mounts, `--chmod` on context files, `--network`…) is
 * refused in one line naming it and its line: the build would fail or make something else.
 */
import type { ClassicDockerfile, ContextFile } from '../../sandbox/types.js';
import { BuildVariables } from './build-variables.js';
import {
  chompedBody,
  DockerfileSyntaxError,
  type Instruction,
  type ParsedDockerfile,
  parseDockerfile,
  words,
} from './dockerfile-parse.js';

/** Where the generated files go, in the context and in the image (removed after use by RUN). */
const HEREDOC_DIR = '.agent-bench-heredoc';

/** A rewrite that cannot be done: the message names the syntax and the line. */
class Unsupported extends Error {}

interface Rewritten {
  lines: string[];
  files: ContextFile[];
  notes: Set<string>;
}

export function forClassicBuilder(text: string): ClassicDockerfile {
  let parsed: ParsedDockerfile;
  try {
    parsed = parseDockerfile(text);
  } catch (err) {
    if (err instanceof DockerfileSyntaxError)
      return { ok: false, problem: `environment/Dockerfile ${err.message}` };
    throw err;
  }
  const source = text.split(/\r?\n/);
  const out: Rewritten = { lines: [], files: [], notes: new Set() };
  const replaced = new Map<number, { end: number; lines: string[] }>();
  const dropped = new Set<number>();
  for (const d of parsed.directives)
    if (d.name === 'syntax') {
      dropped.add(d.line);
      out.notes.add(`dropped # syntax=${d.value}`);
    }
  const vars = new BuildVariables();
  try {
    for (const ins of parsed.instructions) {
      const lines = rewrite(ins, vars, out);
      if (lines !== null) replaced.set(ins.line, { end: ins.endLine, lines });
    }
  } catch (err) {
    if (err instanceof Unsupported) return { ok: false, problem: err.message };
    throw err;
  }
  for (let i = 0; i < source.length; i++) {
    const r = replaced.get(i);
    if (r !== undefined) {
      out.lines.push(...r.lines);
      i = r.end;
    } else if (!dropped.has(i)) out.lines.push(source[i] ?? '');
  }
  return { ok: true, text: out.lines.join('\n'), files: out.files, notes: [...out.notes] };
}

/** The instruction's new lines, or null to keep it as written. */
function rewrite(ins: Instruction, vars: BuildVariables, out: Rewritten): string[] | null {
  const at = `environment/Dockerfile line ${ins.line + 1}`;
  const fail = (what: string): never => {
    throw new Unsupported(
      `${at}: ${what}; agent-bench builds with the engine's classic builder, which lacks it`,
    );
  };
  switch (ins.keyword) {
    case 'FROM': {
      const ws = words(ins.args).filter((w) => !w.startsWith('--'));
      const as = ws.findIndex((w) => w.toUpperCase() === 'AS');
      vars.from(ws[0] ?? '', as >= 0 ? (ws[as + 1] ?? null) : null);
      return null;
    }
    case 'ARG':
    case 'ENV': {
      const problem = ins.keyword === 'ARG' ? vars.arg(ins.args) : vars.env(ins.args);
      return problem === null ? null : fail(`${ins.keyword} ${problem}`);
    }
    case 'RUN':
      return runLines(ins, out, fail);
    case 'COPY':
    case 'ADD':
      return copyLines(ins, vars, out, fail);
    default:
      return null;
  }
}

/** A RUN's flags handled (cache mounts dropped), its heredocs as a script in the context. */
function runLines(ins: Instruction, out: Rewritten, fail: (what: string) => never): string[] | null {
  const { flags, rest } = splitFlags(ins.args);
  for (const flag of flags) {
    const mount = /^--mount=(.*)$/.exec(flag);
    const type = mount === null ? null : (/(?:^|,)type=([^,]+)/.exec(mount[1] ?? '')?.[1] ?? 'bind');
    if (type === 'cache') out.notes.add('dropped RUN --mount=type=cache');
    else fail(`RUN ${mount === null ? flag.replace(/=.*/, '') : `--mount=type=${type}`}`);
  }
  if (ins.heredocs.length === 0) return flags.length === 0 ? null : [`RUN ${rest}`];
  const name = `run-${ins.line + 1}`;
  const inImage = `/${HEREDOC_DIR}/${name}`;
  const [only] = ins.heredocs;
  const alone = ins.heredocs.length === 1 && only !== undefined && rest.trim() === only.marker;
  // BuildKit: a heredoc alone is the script (run by the shell, or itself with a shebang); with a
  // command, the command line and the bodies go to the shell as one script.
  const shebang = alone && only.body.startsWith('#!');
  const script = alone
    ? chompedBody(only)
    : `${rest}\n${ins.heredocs.map((h) => `${h.body}${h.name}`).join('\n')}\n`;
  out.files.push({ path: `${HEREDOC_DIR}/${name}`, content: script, mode: shebang ? 0o755 : 0o644 });
  out.notes.add('heredocs rewritten for the classic builder');
  const cleanup = `trap 'rm -f ${inImage} 2>/dev/null' EXIT`;
  return [`COPY ${HEREDOC_DIR}/${name} ${inImage}`, `RUN ${cleanup}; ${shebang ? inImage : `. ${inImage}`}`];
}

const CLASSIC_COPY_FLAGS = /^--(chown|from)=/;

/** A COPY's or ADD's flags checked, its heredocs as files of the context. */
function copyLines(
  ins: Instruction,
  vars: BuildVariables,
  out: Rewritten,
  fail: (what: string) => never,
): string[] | null {
  const { flags, rest } = splitFlags(ins.args);
  const kept: string[] = [];
  let mode = 0o644;
  for (const flag of flags) {
    if (CLASSIC_COPY_FLAGS.test(flag)) kept.push(flag);
    else if (flag === '--link' || flag === '--link=true') out.notes.add(`dropped ${ins.keyword} --link`);
    else if (flag.startsWith('--chmod=') && ins.heredocs.length > 0 && /^[0-7]{3,4}$/.test(flag.slice(8)))
      mode = Number.parseInt(flag.slice(8), 8);
    else fail(`${ins.keyword} ${flag.replace(/=.*/, '')}`);
  }
  if (ins.heredocs.length === 0)
    return flags.length === kept.length ? null : [[ins.keyword, ...kept, rest].join(' ')];
  if (kept.some((f) => f.startsWith('--from='))) fail(`${ins.keyword} --from with a heredoc`);
  const sources = words(rest);
  const heredocs = [...ins.heredocs];
  const args = sources.map((word, i) => {
    const h = i < sources.length - 1 && word.startsWith('<<') ? heredocs.shift() : undefined;
    if (h === undefined) return word;
    if (!/^[A-Za-z0-9._-]+$/.test(h.name) || h.name === '.' || h.name === '..')
      fail(`${ins.keyword} heredoc ${h.marker} (its delimiter is no file name)`);
    const body = chompedBody(h);
    const expanded = h.expand ? vars.expandBody(body) : { ok: true as const, text: body };
    if (!expanded.ok) fail(`${ins.keyword} ${h.marker} ${expanded.problem}`);
    const path = `${HEREDOC_DIR}/${ins.keyword.toLowerCase()}-${ins.line + 1}-${i}/${h.name}`;
    out.files.push({ path, content: expanded.ok ? expanded.text : '', mode });
    return path;
  });
  out.notes.add('heredocs rewritten for the classic builder');
  return [[ins.keyword, ...kept, ...args].join(' ')];
}

/** The leading `--flag` words of an instruction, and the rest of its line as written. */
function splitFlags(args: string): { flags: string[]; rest: string } {
  const flags: string[] = [];
  let rest = args.trim();
  for (;;) {
    const m = /^(--\S+)\s*/.exec(rest);
    if (m === null) return { flags, rest };
    flags.push(m[1] ?? '');
    rest = rest.slice(m[0].length);
  }
}
