/**
 * The verifier of a model's trial of a Harbor task, apart from the agent. Harbor runs test.sh as
 * root, and a test that imports the agent's code runs that code as root: in the agent's own
 * sandbox it could start a daemon that rewrites the reward after test.sh wrote it, or that stays
 * for the next trial with the hidden tests. So, once the agent's last turn is over:
 *  1. every process in the sandbox is killed (the agent's and any other);
 *  2. a fresh container of the trial's sandbox image is started (verifier-container.ts: no
 *     network, the sandbox's limits and labels) and the final workspace copied into it, at the
 *     same WORKDIR; tests/ goes to its /tests, never into the sandbox. A separate verifier's
 *     container (its own image) gets a read-only copy instead, of the declared artifacts when there
 *     are any (verifier-copy.ts);
 *  3. test.sh runs there under a supervisor (supervisor.ts), by engine execs of its own (no relay),
 *     within task.toml's verifier timeout; the host waits that long plus a margin, no longer;
 *  4. the container is removed, whatever happened: nothing test.sh started outlives the verifier.
 *
 * The reward rule. A reward counts only if test.sh's process tree wrote it and was gone before
 * it was read: the supervisor reads the reward files after test.sh's main process ended and every
 * process in the container was killed. It is refused as tampered (reward 0, `tampered` says why)
 * when a process might have written it from outside that tree or after it:
 *  - a process left the tree while test.sh ran: it ended after its parent did, so the
 *    supervisor (a subreaper) reaped it (a double-forked daemon, whether it ended or not);
 *  - a process outlived test.sh's main process (a daemon, or a background job test.sh left);
 *  - a process survived the supervisor's kills;
 *  - the supervisor's report is missing (it was killed, or stopped past the host's deadline).
 * Without tracing every write we cannot tell a harmless leftover from a forger, so any of these
 * refuses the reward: a task whose test.sh leaves a service running cannot be scored here. Agent
 * code that test.sh runs in its own tree can still decide the outcome as in Harbor (exit 0 from an
 * import, say); what it can no longer do is write the reward after test.sh or leave anything
 * behind. A test.sh that runs out of time (a FIFO it reads, a sleep) is `timedOut`, its reward
 * refused as unfinished, and comes back within the timeout plus a few seconds.
 */
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import {
  HARBOR_OUTPUT_TAIL,
  type HarborEnvironmentSpec,
  type HarborReward,
  type HarborVerifierRun,
  type Sandbox,
  WORKSPACE_DIR,
} from '../types.js';
import { readReward } from './reward.js';
import {
  parseReport,
  type RewardFile,
  type SupervisorReport,
  startedTests,
  supervisorArgv,
} from './supervisor.js';
import {
  bounded,
  copyWorkspace,
  putTests,
  removeContainer,
  startVerifierContainer,
} from './verifier-container.js';
import { copyForVerifier, removeVerifierCopy } from './verifier-copy.js';

/** How long past test.sh's timeout the host waits for the supervisor's report (kills, reading). */
const REPORT_MARGIN_SEC = 15;
const OUTPUT_CAP = 256 * 1024;

export interface VerifierImage {
  /** The trial's sandbox image (run-image.ts). */
  tag: string;
  /** The task image's WORKDIR as the engine built it: where test.sh runs, a link to /workspace. */
  workdir: string;
  /** The tools volume the image's containers mount (tools-volume.ts). */
  toolsVolume: string;
}

export async function runHarborVerifier(
  client: Docker,
  sandbox: Sandbox,
  verifier: HarborEnvironmentSpec['verifier'],
  image: VerifierImage,
): Promise<HarborVerifierRun> {
  await sandbox.killAllProcesses();
  const agent = client.getContainer(sandbox.id);
  // A separate verifier (its own image) gets a read-only copy of the declared artifacts, else of
  // the workspace, as Harbor uploads them; the shared one a writable copy of the workspace.
  const copy =
    verifier.image === undefined
      ? null
      : await copyForVerifier(client, agent, WORKSPACE_DIR, verifier.artifacts, image.tag, {});
  try {
    const container = await startVerifierContainer(
      client,
      agent,
      image.tag,
      image.toolsVolume,
      copy?.mount(WORKSPACE_DIR),
    );
    try {
      if (copy === null) await copyWorkspace(agent, container);
      await putTests(container, verifier);
      return await supervise(container, verifier, image.workdir);
    } finally {
      await removeContainer(container);
    }
  } finally {
    if (copy !== null) await removeVerifierCopy(client, copy.volume);
  }
}

/** test.sh under the supervisor, and the verdict on its report. */
async function supervise(
  container: Docker.Container,
  verifier: HarborEnvironmentSpec['verifier'],
  workdir: string,
): Promise<HarborVerifierRun> {
  const limitSec = Math.ceil(verifier.timeoutSec);
  const nonce = randomBytes(16).toString('hex');
  const r = await bounded(container, {
    argv: supervisorArgv(workdir, limitSec),
    user: 'root',
    env: verifier.env,
    stdin: Buffer.from(`${nonce}\n`),
    deadlineMs: (limitSec + REPORT_MARGIN_SEC) * 1000,
    maxStdoutBytes: OUTPUT_CAP,
    maxStderrBytes: OUTPUT_CAP,
  });
  const report = parseReport(r.stdout, nonce);
  if (report !== null) return verdictOf(report, limitSec);
  // Before test.sh started nothing of the agent's ran: a failure then is the harness's.
  if (!startedTests(r.stdout, nonce))
    throw new InfraError(
      `the Harbor verifier's supervisor failed before it started tests/test.sh: ${r.deadlineHit ? 'no answer' : r.stderr.toString('utf8').trim().slice(-500) || `exit code ${r.exitCode}`}`,
    );
  return unreported(r.deadlineHit, limitSec, r.stderr.toString('utf8'));
}

/** What a supervisor's report makes of the run (the rule in the file comment). */
export function verdictOf(report: SupervisorReport, limitSec: number): HarborVerifierRun {
  const base = {
    exitCode: report.exitCode ?? (report.signal === null ? null : 128 + report.signal),
    timedOut: report.timedOut,
    output: outputTail(report.output),
  };
  const tampered = tamperOf(report);
  if (tampered !== null) {
    const claimed = rewardOf(report);
    const said = claimed.ok ? ` (it read ${claimed.reward})` : '';
    return { ...base, reward: { ok: true, reward: 0, metrics: {} }, tampered: `${tampered}${said}` };
  }
  if (report.timedOut)
    return {
      ...base,
      reward: { ok: false, problem: `tests/test.sh did not finish within ${limitSec} s and was killed` },
      output: outputTail(`${report.output}\n[tests/test.sh killed after ${limitSec} s]`),
      tampered: null,
    };
  return { ...base, reward: rewardOf(report), tampered: null };
}

function tamperOf(report: SupervisorReport): string | null {
  const named = (list: string[]): string =>
    `${list.slice(0, 5).join(', ')}${list.length > 5 ? ` and ${list.length - 5} more` : ''}`;
  if (report.detached.length > 0)
    return `reward refused: process(es) left tests/test.sh's process tree while it ran (${named(report.detached)}), so its reward may not be test.sh's own`;
  // After a timeout test.sh itself is among them: that is a timeout, not a forgery.
  if (!report.timedOut && report.outlived.length > 0)
    return `reward refused: process(es) outlived tests/test.sh (${named(report.outlived)}), so its reward may not be test.sh's own`;
  if (report.unkilled.length > 0)
    return `reward refused: process(es) survived the verifier's kill (${named(report.unkilled)})`;
  return null;
}

function rewardOf(report: SupervisorReport): HarborReward {
  const txt = contentOf(report.rewardTxt, 'reward.txt');
  if (!txt.ok) return txt;
  // reward.txt wins, as in Harbor: reward.json is not even looked at.
  if (txt.text !== null) return readReward(txt.text, null);
  const json = contentOf(report.rewardJson, 'reward.json');
  if (!json.ok) return json;
  return readReward(null, json.text);
}

/** A reward file's text (null: no such file), or why it cannot be a reward. */
function contentOf(
  file: RewardFile | null,
  name: string,
): { ok: true; text: string | null } | { ok: false; problem: string } {
  if (file === null) return { ok: true, text: null };
  if (!file.regular) return { ok: false, problem: `/logs/verifier/${name} is not a regular file` };
  if (file.cut) return { ok: false, problem: `/logs/verifier/${name} is too long to be a reward` };
  return { ok: true, text: Buffer.from(file.data, 'base64').toString('utf8') };
}

/** No report from the supervisor: stopped past the deadline, or killed, by the tree it watched. */
function unreported(deadlineHit: boolean, limitSec: number, stderr: string): HarborVerifierRun {
  const why = deadlineHit
    ? `the verifier's supervisor gave no report within ${limitSec + REPORT_MARGIN_SEC} s (stopped by a process of tests/test.sh?)`
    : "the verifier's supervisor ended without its report (killed by a process of tests/test.sh?)";
  return {
    reward: { ok: true, reward: 0, metrics: {} },
    exitCode: null,
    timedOut: deadlineHit,
    output: outputTail(stderr),
    tampered: `reward refused: ${why}`,
  };
}

/** The last HARBOR_OUTPUT_TAIL characters of a Harbor script's output, trimmed. */
function outputTail(text: string): string {
  const t = text.trim();
  return t.length <= HARBOR_OUTPUT_TAIL ? t : `...${t.slice(-(HARBOR_OUTPUT_TAIL - 3))}`;
}
