/** Supervisor reports (src/sandbox/harbor/supervisor.ts) for tests of the verifier's verdicts. */
import type { RewardFile, SupervisorReport } from '../../../src/sandbox/harbor/supervisor.js';

/** A regular reward file holding `text`. */
export function rewardFile(text: string): RewardFile {
  return { regular: true, data: Buffer.from(text).toString('base64'), cut: false };
}

/** The report of a clean run (exit 0, nothing left behind) that wrote no reward, with `over` applied. */
export function supervisorReport(over: Partial<SupervisorReport> = {}): SupervisorReport {
  return {
    exitCode: 0,
    signal: null,
    timedOut: false,
    detached: [],
    outlived: [],
    unkilled: [],
    rewardTxt: null,
    rewardJson: null,
    output: 'ok',
    ...over,
  };
}
