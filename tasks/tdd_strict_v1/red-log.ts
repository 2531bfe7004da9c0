/**
 * The red log: which steps sent pytest's own output into it (`pytest > red.log 2>&1`,
 * `pytest 2>&1 | tee red.log`), and whether a log's text reports a failing run. A log written any
 * other way (write_file, `echo ... > red.log`) was not produced by a run, whatever it says.
 */
import { operandPaths } from '../../src/scoring/operands.js';
import type { StepRef } from '../../src/scoring/ordering.js';
import { pytestArguments } from '../../src/scoring/pytest.js';
import { parseCommandLine, type SimpleCommand } from '../../src/scoring/shell-commands.js';
import type { Word } from '../../src/scoring/shell-words.js';
import { programName } from '../../src/scoring/shell-wrappers.js';
import type { CheckContext } from '../../src/tasks/types.js';

const STDOUT_TO_FILE = new Set(['>', '>>', '>|', '&>', '&>>']);

function names(word: Word | null, cwd: string | null, absPath: string): boolean {
  return word !== null && operandPaths(word, cwd).some((p) => !p.glob && p.path === absPath);
}

function feedsPytestOutput(cmd: SimpleCommand, absPath: string): boolean {
  if (pytestArguments(cmd.argv) !== null) {
    return cmd.redirects.some(
      (r) => STDOUT_TO_FILE.has(r.op) && (r.fd === null || r.fd === 1) && names(r.target, cmd.cwd, absPath),
    );
  }
  const from = cmd.pipedFrom;
  return (
    programName(cmd.argv[0]) === 'tee' &&
    from !== null &&
    pytestArguments(from.argv) !== null &&
    cmd.argv.slice(1).some((w) => !w.text.startsWith('-') && names(w, cmd.cwd, absPath))
  );
}

/**
 * Steps that wrote pytest's output to absPath. Step numbers are those of the scoring core: one step
 * per simple command of an execute_command line, in parse order.
 */
export function pytestLogWrites(ctx: Pick<CheckContext, 'calls'>, absPath: string): StepRef[] {
  const out: StepRef[] = [];
  ctx.calls.forEach((call, index) => {
    const command = call.arguments?.command;
    if (call.name !== 'execute_command' || call.invalid !== null || typeof command !== 'string') return;
    parseCommandLine(command, call.cwd).forEach((cmd, step) => {
      if (feedsPytestOutput(cmd, absPath)) out.push({ call: index, step });
    });
  });
  return out;
}

/** A pytest summary line (`2 failed, 1 passed in 0.05s`, `1 error in 0.07s`) reporting failures or errors. */
export function reportsFailure(log: string): boolean {
  return log
    .split('\n')
    .some((line) => /\bin \d+(\.\d+)?s\b/.test(line) && /\b\d+ (failed|errors?)\b/.test(line));
}
