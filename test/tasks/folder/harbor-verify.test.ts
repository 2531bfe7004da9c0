/**
 * The verifier of a model's Harbor trial against an in-memory sandbox: the order it works in (no
 * process left, no earlier trial's files, tests in, test.sh as root in the WORKDIR), the reward as
 * the score, the note when a task that allows internet was verified without it, and no reward as
 * a failed trial by the agent's fault (src/agent/attribution.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHarborVerifier } from '../../../src/sandbox/harbor/verifier.js';
import type { ExecOptions, ExecResult, Sandbox, SandboxFile } from '../../../src/sandbox/types.js';
import { harborEnvironmentSpec } from '../../../src/tasks/folder/harbor/environment.js';
import { type HarborTask, loadHarborFolder } from '../../../src/tasks/folder/harbor/load.js';
import { harborVerdict } from '../../../src/tasks/folder/harbor/verify.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/harbor');

/** A sandbox that records what the verifier asks of it and holds the given /logs/verifier files. */
function fakeSandbox(logs: Record<string, string>) {
  const steps: string[] = [];
  const execs: { argv: string[]; options: ExecOptions | undefined }[] = [];
  const sandbox = {
    async killAllProcesses() {
      steps.push('kill');
    },
    async exec(argv: string[], options?: ExecOptions): Promise<ExecResult> {
      steps.push(`exec ${argv[0]}`);
      execs.push({ argv, options });
      return {
        exitCode: 0,
        stdout: 'ran\n',
        stderr: '',
        stdoutCutBytes: 0,
        stderrCutBytes: 0,
        timedOut: false,
        elapsedMs: 1,
      };
    },
    async putFiles(files: SandboxFile[], o?: { owner?: string }) {
      steps.push(`put ${files.map((f) => f.path).join(',')} as ${o?.owner}`);
    },
    async getFiles(paths: string[]) {
      const out = new Map<string, Buffer>();
      for (const p of paths) {
        const name = p.replace('/harness/logs/verifier/', '');
        if (logs[name] !== undefined) out.set(p, Buffer.from(logs[name]));
      }
      return out;
    },
  };
  return { sandbox: sandbox as unknown as Sandbox, steps, execs };
}

/** The verifier run in the sandbox (src/sandbox/harbor/), judged as the task's verdict. */
async function verifyHarborTrial(task: HarborTask, workdir: string, sandbox: Sandbox) {
  return harborVerdict(task, await runHarborVerifier(sandbox, harborEnvironmentSpec(task).verifier, workdir));
}

describe('the Harbor verifier of a model trial', () => {
  it('clears what an earlier trial left, then runs test.sh as root in the WORKDIR; reward 1 passes', async () => {
    const { sandbox, steps, execs } = fakeSandbox({ 'reward.txt': '1\n' });
    const verdict = await verifyHarborTrial(loadHarborFolder(join(FIXTURES, 'sound')), '/app', sandbox);
    expect(steps).toEqual(['kill', 'exec rm', 'put /harness/tests/test.sh as root', 'exec bash']);
    expect(execs[0]?.argv).toEqual(['rm', '-rf', '/harness/tests', '/harness/logs']);
    expect(execs[1]?.argv.slice(3)).toEqual(['harbor', '/app', '60']);
    expect(execs[1]?.options?.user).toBe('root');
    expect(verdict).toEqual({
      flags: {
        reward: {
          reached: true,
          turn: null,
          kind: 'outcome',
          detail: 'Harbor verifier tests/test.sh: reward 1',
        },
      },
      score: 1,
      passed: true,
    });
  });

  it('keeps a partial reward as the score, and says the task that allows internet ran without', async () => {
    const { sandbox } = fakeSandbox({ 'reward.json': '{"reward": 0.25, "lines_right": 1}' });
    const verdict = await verifyHarborTrial(
      loadHarborFolder(join(FIXTURES, 'partial-reward')),
      '/work',
      sandbox,
    );
    expect(verdict.passed).toBe(false);
    expect(verdict.score).toBe(0.25);
    expect(verdict.flags.reward?.detail).toBe(
      'Harbor verifier tests/test.sh: reward 0.25; run without network, though task.toml allows internet',
    );
  });

  it('a verifier that writes no reward fails the trial by the agent’s fault, with its output', async () => {
    const { sandbox } = fakeSandbox({});
    const verdict = await verifyHarborTrial(loadHarborFolder(join(FIXTURES, 'sound')), '/app', sandbox);
    expect(verdict.passed).toBe(false);
    expect(verdict.score).toBe(0);
    expect(verdict.fault).toEqual({
      kind: 'sabotaged_checks',
      detail:
        'Harbor verifier tests/test.sh: no reward: the verifier wrote neither /logs/verifier/reward.txt nor reward.json (ran)',
    });
  });
});
