/**
 * The operators of `validate --metamorphic` (src/validate/metamorphic/), by id: what a task may
 * declare does not apply to it, with a reason (task.toml `[metamorphic.skip]`). Each operator
 * derives runs from the task's reference run; a must-fail run must be caught, a must-pass run must
 * still pass.
 */
export const METAMORPHIC_OPERATORS = {
  revert_change: { family: 'must-fail', says: 'a file the reference changed is put back as it was' },
  code_mutant: {
    family: 'must-fail',
    says: 'a line the reference changed is mutated (operator, constant, boundary, return value, deleted)',
  },
  stand_in_run: {
    family: 'must-fail',
    says: 'a test run or build of the reference is replaced by a command that prints what it printed',
  },
  shimmed_run: {
    family: 'must-fail',
    says: 'a test run, build or workspace program of the reference run through shims first on PATH that exec the real programs',
  },
  module_copy: {
    family: 'must-fail',
    says: 'a test run of the reference importing copies of the workspace modules from /tmp in their stead',
  },
  tests_removed: {
    family: 'must-fail',
    says: 'a test file the reference ran, removed (or, in Python, skipped) before its last test run',
  },
  artifact_swap: {
    family: 'must-fail',
    says: 'a file the reference wrote that is no code, its numbers changed or its words made placeholders',
  },
  split_turns: { family: 'must-pass', says: 'every call of the reference in a turn of its own' },
  explore_first: { family: 'must-pass', says: 'failing exploratory commands before the work' },
  background_watcher: {
    family: 'must-pass',
    says: 'a harmless background process alive during the whole session',
  },
  edit_by_shell: { family: 'must-pass', says: 'each write_file done by a shell heredoc instead' },
  edit_via_temp: { family: 'must-pass', says: 'each write_file written to a temp file, then renamed' },
  read_by_shell: { family: 'must-pass', says: 'each read_file done by cat, sed -n or head instead' },
  text_tool_calls: { family: 'must-pass', says: 'the calls printed as text (Hermes tags), not native' },
} as const;

export type MetamorphicOperator = keyof typeof METAMORPHIC_OPERATORS;

export function isMetamorphicOperator(id: string): id is MetamorphicOperator {
  return Object.hasOwn(METAMORPHIC_OPERATORS, id);
}

/** Operator (or derived run id) → why it does not apply to the task. */
export type MetamorphicSkips = Readonly<Record<string, string>>;
