/**
 * The reference_solution skeleton `skill init` writes: read the required files, run each script SKILL.md
 * names, give a final answer. A command is taken from SKILL.md when a line there runs the script (so a
 * documented command line replays as documented); otherwise it is the bare script, marked "# TODO" for
 * the arguments only a person knows. The skeleton loads as it is; `validate` tells whether it solves.
 */
type SkeletonTurn =
  | { name: 'read_file'; arguments: { path: string } }
  | { name: 'execute_command'; arguments: { command: string } }
  | { text: string; calls: [] };

/** Interpreters by extension; a script without one is run with sh. */
const INTERPRETERS: readonly [RegExp, string][] = [
  [/\.bash$/, 'bash'],
  [/\.py$/, 'python3'],
  [/\.(m|c)?js$/, 'node'],
  [/\.rb$/, 'ruby'],
  [/\.pl$/, 'perl'],
];

/** A line that starts like a command: an interpreter, a relative or absolute path. */
const COMMAND_START = /^(?:sh|bash|python3?|node|perl|ruby|\.\.?\/|\/|scripts\/|bin\/)/;

export function referenceSkeleton(
  doc: string,
  reads: readonly string[],
  scripts: readonly string[],
): SkeletonTurn[] {
  return [
    ...reads.map((path): SkeletonTurn => ({ name: 'read_file', arguments: { path } })),
    ...scripts.map(
      (p): SkeletonTurn => ({ name: 'execute_command', arguments: { command: commandFor(doc, p) } }),
    ),
    { text: 'TODO: the final answer (what was done, and where the results are).', calls: [] },
  ];
}

function commandFor(doc: string, script: string): string {
  const documented = doc
    .split('\n')
    .map((line) =>
      line
        .trim()
        .replace(/^\$\s+/, '')
        .replace(/^`+|`+$/g, ''),
    )
    .find((line) => COMMAND_START.test(line) && line.includes(script.slice(script.lastIndexOf('/') + 1)));
  if (documented !== undefined) return documented;
  const interpreter = INTERPRETERS.find(([ext]) => ext.test(script))?.[1] ?? 'sh';
  return `${interpreter} /workspace/skill/${script}  # TODO: the arguments that solve the task`;
}
