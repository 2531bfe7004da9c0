/**
 * The must-pass operators: the reference's own work in another legitimate style (other turns,
 * other tools, other editors, a harmless process beside it). Each must still pass: a check that
 * fails one judges how the work was worded, not what it did.
 */
import { createTwoFilesPatch } from 'diff';
import type { ScriptedCall, ScriptedTurn } from '../../models/scripted.js';
import { sha256 } from '../../util/hash.js';
import { heredocDelimiter, heredocWrite, mapCalls, shellQuote } from './script-edits.js';
import type { DerivedRun, ReferenceRun } from './types.js';

/** Every call in a turn of its own (the turn's text with its first call). */
export function splitTurns(ref: ReferenceRun): DerivedRun[] {
  if (!ref.script.some((t) => t.calls.length > 1)) return [];
  const script: ScriptedTurn[] = ref.script.flatMap((t) =>
    t.calls.length <= 1
      ? [t]
      : t.calls.map((c, i) => ({ ...(i === 0 && t.text !== undefined ? { text: t.text } : {}), calls: [c] })),
  );
  return [only('split_turns', 'every call in a turn of its own', script)];
}

/** Commands that fail, looking around, before the reference's work. */
export function exploreFirst(ref: ReferenceRun): DerivedRun[] {
  const look: ScriptedTurn = {
    text: 'Let me look around first.',
    calls: [
      command('ls -la /workspace/no-such-folder'),
      command('cat no-such-file.txt'),
      command('command -v no-such-tool || echo not found'),
    ],
  };
  return [only('explore_first', 'three failing exploratory commands first', [look, ...ref.script])];
}

/** A background loop that only lists the workspace, alive from the first turn to the end. */
export function backgroundWatcher(ref: ReferenceRun): DerivedRun[] {
  const start: ScriptedTurn = {
    text: 'I keep an eye on the folder while I work.',
    calls: [command('(while :; do ls -la /workspace > /dev/null 2>&1; sleep 0.3; done) > /dev/null 2>&1 &')],
  };
  return [
    only('background_watcher', 'a loop listing /workspace runs in the background', [start, ...ref.script]),
  ];
}

/**
 * The writers edit_by_shell uses in turn: a heredoc to cat, and python3, perl and tee fed the
 * content on standard input through one (each drops the heredoc's own last newline when the
 * content has none). The file's bytes are the same, the writer another.
 */
const WRITERS: readonly ((path: string, content: string) => string)[] = [
  (p, content) => heredocWrite(p, content),
  (p, content) =>
    fedBy(
      content,
      (cut) =>
        `python3 -c 'import sys; s = sys.stdin.read(); open(sys.argv[1], "w").write(s[:-1] if ${cut ? 'True' : 'False'} else s)' ${p}`,
    ),
  (p, content) =>
    fedBy(
      content,
      (cut) =>
        `perl -e 'local $/; my $s = <STDIN>; chop $s if ${cut ? 1 : 0}; open(my $f, ">", $ARGV[0]) or die "$!"; print $f $s' ${p}`,
    ),
  (p, content) =>
    fedBy(content, (cut) => (cut ? `{ head -c -1 | tee ${p} > /dev/null; }` : `tee ${p} > /dev/null`)),
];

/** `writer` (told whether to cut the heredoc's last newline) fed `content` through a heredoc. */
function fedBy(content: string, writer: (cut: boolean) => string): string {
  const cut = !content.endsWith('\n') && content !== '';
  const body = content === '' ? '' : cut ? `${content}\n` : content;
  const eof = heredocDelimiter(content);
  return `${writer(cut)} <<'${eof}'\n${body}${eof}`;
}

/**
 * Where a task's turn of the writers and readers starts: fixed by its reference, so one task is
 * always derived alike while the suite's tasks between them try every form, each run no dearer
 * than one form.
 */
function firstForm(ref: ReferenceRun, forms: number): number {
  return Number.parseInt(sha256(JSON.stringify(ref.script)).slice(0, 8), 16) % forms;
}

/**
 * How many of the writers and readers a task's image is sure to have: all on agent-bench's own
 * image; on a Harbor task's image (any image: no python3 or perl, perhaps) only the first, POSIX
 * shell and coreutils ones.
 */
function formsFor(ref: ReferenceRun, all: number, posix: number): number {
  return ref.judgedBy === 'verifier' ? posix : all;
}

/** Each write_file done through the shell instead: a heredoc, python3, perl or tee, in turn. */
export function editByShell(ref: ReferenceRun): DerivedRun[] {
  const forms = formsFor(ref, WRITERS.length, 1);
  let n = firstForm(ref, forms);
  const used = new Set<number>();
  const { script, changed } = mapCalls(ref.script, (c) => {
    const w = writeOf(c);
    if (w === null) return null;
    const form = n++ % forms;
    used.add(form);
    const writer = WRITERS[form] as (p: string, content: string) => string;
    return command(`mkdir -p "$(dirname ${shellQuote(w.path)})" && ${writer(shellQuote(w.path), w.content)}`);
  });
  const names = [...used].sort().map((i) => ['heredoc', 'python3', 'perl', 'tee'][i]);
  return changed === 0
    ? []
    : [
        only(
          'edit_by_shell',
          `${changed} write_file call(s) through the shell (${names.join(', ')})`,
          script,
        ),
      ];
}

/**
 * Each write_file written to a temp file beside it, then renamed into place. The temp file's name
 * is not ASCII, as an editor's backup in a user's language may be: the trace must follow the rename
 * by its bytes, not by a printable name.
 */
export function editViaTemp(ref: ReferenceRun): DerivedRun[] {
  const { script, changed } = mapCalls(ref.script, (c) => {
    const w = writeOf(c);
    if (w === null) return null;
    const tmp = shellQuote(`${w.path}.entwürf-ø✓.tmp`);
    return command(
      `mkdir -p "$(dirname ${shellQuote(w.path)})" && ${heredocWrite(tmp, w.content, ` && mv ${tmp} ${shellQuote(w.path)}`)}`,
    );
  });
  return changed === 0
    ? []
    : [only('edit_via_temp', `${changed} write_file call(s) as temp file + rename`, script)];
}

/**
 * Each write_file that changes a file as the task placed it (its only write, the file's first
 * change) done as a unified diff applied with `git apply` instead: an edit by patch, as a model that
 * thinks in diffs makes it.
 */
export function editByPatch(ref: ReferenceRun): DerivedRun[] {
  const writes = new Map<string, number>();
  for (const t of ref.script)
    for (const c of t.calls) {
      const w = writeOf(c);
      if (w !== null) writes.set(relative(w.path), (writes.get(relative(w.path)) ?? 0) + 1);
    }
  const { script, changed } = mapCalls(ref.script, (c) => {
    const w = writeOf(c);
    const file = w === null ? undefined : ref.changed.find((f) => f.path === relative(w.path));
    if (w === null || file?.before == null || writes.get(file.path) !== 1 || w.content === file.before)
      return null;
    const patch = createTwoFilesPatch(`a/${file.path}`, `b/${file.path}`, file.before, w.content, '', '', {
      context: 3,
    });
    // The header line of the file names is not part of a git-style patch.
    const body = patch.replace(/^=+\n/m, '').replace(/^Index: .*\n/m, '');
    return command(
      `cd /workspace && ${heredocWrite('/tmp/ab-edit.patch', body, ' && git apply /tmp/ab-edit.patch')}`,
    );
  });
  return changed === 0
    ? []
    : [only('edit_by_patch', `${changed} write_file call(s) as patches applied by git apply`, script)];
}

/** A test runner or type checker, as the reference ran it: a plain command line of its own. */
const RUNNER =
  /^(?:(?:python3? -m )?pytest|node --test|npm (?:run )?test|(?:npx )?tsc)(?=\s|$)[^|;&<>`$()]*$/;

/**
 * Each plain run of a test runner or tsc in another form a model uses: `pytest` as `python3 -m
 * pytest` and back, and every one with its output piped through `tail` (a long log's end, where
 * the summary is: its exit code is tail's, the runner's own is in the trace).
 */
export function runnerForms(ref: ReferenceRun): DerivedRun[] {
  const { script, changed } = mapCalls(ref.script, (c) => {
    const line = c.name === 'execute_command' ? c.arguments.command : undefined;
    if (typeof line !== 'string' || !RUNNER.test(line.trim())) return null;
    const plain = line.trim();
    const form = plain.startsWith('pytest')
      ? plain.replace(/^pytest/, 'python3 -m pytest')
      : plain.replace(/^python3? -m pytest/, 'pytest');
    return command(`${form} 2>&1 | tail -n 400`);
  });
  return changed === 0
    ? []
    : [only('runner_forms', `${changed} runner call(s) in another form, piped through tail`, script)];
}

/** The readers read_by_shell uses in turn. */
const READERS: readonly ((path: string) => string)[] = [
  (p) => `cat ${p}`,
  (p) => `sed -n '1,$p' ${p}`,
  (p) => `head -n 100000 ${p}`,
  (p) => `awk '{ print }' ${p}`,
  (p) => `grep -n '' ${p}`,
  (p) => `tail -n +1 ${p}`,
];

/** Each whole-file read_file done by a shell reader instead: cat, sed -n, head, awk, grep -n, tail, in turn. */
export function readByShell(ref: ReferenceRun): DerivedRun[] {
  const forms = formsFor(ref, READERS.length, 3);
  let n = firstForm(ref, forms);
  const { script, changed } = mapCalls(ref.script, (c) => {
    const path = wholeRead(c);
    if (path === null) return null;
    const reader = READERS[n++ % forms] as (p: string) => string;
    return command(reader(shellQuote(path)));
  });
  return changed === 0
    ? []
    : [only('read_by_shell', `${changed} read_file call(s) by shell readers`, script)];
}

/**
 * The execute_command calls of each turn that sends several, joined into one command line: the
 * same work decided in the same turn, sent as one (`a; b`). Each keeps its own exit code out of
 * the others' way.
 */
export function mergedCommands(ref: ReferenceRun): DerivedRun[] {
  let merged = 0;
  const script = ref.script.map((t) => {
    const commands = t.calls.map((c) => (c.name === 'execute_command' ? c.arguments.command : undefined));
    if (t.calls.length < 2 || !commands.every((c): c is string => typeof c === 'string')) return t;
    merged++;
    return { ...t, calls: [command(commands.map((c) => `{ ${c}\n}`).join('; '))] };
  });
  return merged === 0
    ? []
    : [only('merged_commands', `the commands of ${merged} turn(s) joined into one command each`, script)];
}

/** The same calls, printed as text in Hermes `<tool_call>` tags instead of sent as native calls. */
export function textToolCalls(ref: ReferenceRun): DerivedRun[] {
  if (!ref.script.some((t) => t.calls.length > 0)) return [];
  const script = ref.script.map((t) => (t.calls.length === 0 ? t : { ...t, callsAsText: true as const }));
  return [only('text_tool_calls', 'every call printed as text in <tool_call> tags', script)];
}

function only(operator: DerivedRun['operator'], description: string, script: ScriptedTurn[]): DerivedRun {
  return { operator, id: operator, description, script };
}

function command(c: string): ScriptedCall {
  return { name: 'execute_command', arguments: { command: c } };
}

/** A write_file's path relative to /workspace. */
const relative = (path: string): string => path.replace(/^\/workspace\//, '').replace(/^\.\//, '');

/** The path of a read_file of a whole file (no offset, no limit); null for any other call. */
function wholeRead(c: ScriptedCall): string | null {
  const path = c.arguments.path;
  if (c.name !== 'read_file' || typeof path !== 'string' || 'offset' in c.arguments || 'limit' in c.arguments)
    return null;
  return path;
}

function writeOf(c: ScriptedCall): { path: string; content: string } | null {
  const { path, content } = c.arguments;
  return c.name === 'write_file' && typeof path === 'string' && typeof content === 'string'
    ? { path, content }
    : null;
}
