/**
 * What a trial's condition sees of a tool call, whoever answers it (the sandbox's tools, a
 * dialogue's domain tools): the call, and the run it may replace or add to.
 */
import type { ToolCallLog } from '../../results/trial.js';

/** The fields of a tool-call log a tool fills in; the dispatcher adds name, arguments, source and cwd. */
type ToolResultLog = Omit<ToolCallLog, 'name' | 'arguments' | 'raw_arguments' | 'source' | 'cwd'> & {
  cwd?: string;
};

export interface ToolOutcome {
  log: ToolResultLog;
  /** Content of the tool message sent back to the model. */
  reply: string;
}

/**
 * Runs a call the dispatcher accepted under the trial's condition (faults.ts, injection/): it may
 * answer without calling `run` (nothing ran), or add to what the model is shown.
 */
export type CallHook = (
  call: { name: string; arguments: Record<string, unknown>; cwd: string; turn: number },
  run: () => Promise<ToolOutcome>,
) => Promise<ToolOutcome>;
