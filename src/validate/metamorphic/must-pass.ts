/**
 * The must-pass operators: the reference's own work in another legitimate style (other turns,
 * other tools, other editors, a harmless process beside it). Each must still pass: a check that
 * fails one judges how the work was worded, not what it did.
 */
import { createTwoFilesPatch } from 'diff';
import type { ScriptedCall, ScriptedTurn } from '../../models/scripted.js';
import { heredocWrite, mapCalls, shellQuote } from './script-edits.js';
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

/** Each write_file done by a heredoc through the shell. */
export function editByShell(ref: ReferenceRun): DerivedRun[] {
  const { script, changed } = mapCalls(ref.script, (c) => {
    const w = writeOf(c);
    return w === null
      ? null
      : command(
          `mkdir -p "$(dirname ${shellQuote(w.path)})" && ${heredocWrite(shellQuote(w.path), w.content)}`,
        );
  });
  return changed === 0 ? [] : [only('edit_by_shell', `${changed} write_file call(s) as heredocs`, script)];
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

/** Each whole-file read_file done by a shell reader instead (cat, sed -n, head in turn). */
export function readByShell(ref: ReferenceRun): DerivedRun[] {
  const readers = [
    (p: string) => `cat ${p}`,
    (p: string) => `sed -n '1,$p' ${p}`,
    (p: string) => `head -n 100000 ${p}`,
  ];
  let n = 0;
  const { script, changed } = mapCalls(ref.script, (c) => {
    const path = c.arguments.path;
    if (
      c.name !== 'read_file' ||
      typeof path !== 'string' ||
      'offset' in c.arguments ||
      'limit' in c.arguments
    )
      return null;
    const reader = readers[n++ % readers.length] as (p: string) => string;
    return command(reader(shellQuote(path)));
  });
  return changed === 0
    ? []
    : [only('read_by_shell', `${changed} read_file call(s) by cat, sed -n or head`, script)];
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

function writeOf(c: ScriptedCall): { path: string; content: string } | null {
  const { path, content } = c.arguments;
  return c.name === 'write_file' && typeof path === 'string' && typeof content === 'string'
    ? { path, content }
    : null;
}
