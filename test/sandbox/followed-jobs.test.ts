/**
 * Background jobs are traced past their command (sandbox/report/exec_report.py follow_survivors):
 * once the agent's processes are killed, their whole traces come back, so a change is dated by the
 * process that wrote it and a job that only watched moves no date.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '../../src/sandbox/index.js';
import { IMAGE_TIMEOUT_MS, openSandbox } from './fixture.js';

let sandbox: DockerSandbox;
beforeAll(async () => {
  sandbox = await openSandbox();
}, IMAGE_TIMEOUT_MS);
afterAll(() => sandbox?.dispose());

const writesOf = (processes: readonly { opens: { path: string; write: boolean }[] }[]) =>
  processes.flatMap((p) => p.opens.filter((o) => o.write).map((o) => o.path));

describe('followed traces', () => {
  it("return a job's writes made turns after its command, and a watcher's nothing", async () => {
    await sandbox.reset();
    const writer = await sandbox.runCommand(
      '(sleep 0.5; echo late > /workspace/late.txt; sleep 30) &',
      10_000,
    );
    const watcher = await sandbox.runCommand(
      '(while :; do ls /workspace > /dev/null; sleep 0.1; done) &',
      10_000,
    );
    expect(writer.aliveAfter?.length).toBeGreaterThan(0);
    // The job's write lands during a later command, not in its own trace.
    await sandbox.runCommand('sleep 1', 10_000);
    expect(writesOf(writer.trace?.processes ?? [])).not.toContain('/workspace/late.txt');
    await sandbox.killAgentProcesses();
    const followed = await sandbox.followedTraces();
    expect(followed).toHaveLength(2);
    const rootOf = (r: typeof writer) => r.trace?.processes[0]?.pid;
    const mine = (r: typeof writer) => followed.find((t) => t.processes[0]?.pid === rootOf(r));
    expect(writesOf(mine(writer)?.processes ?? [])).toContain('/workspace/late.txt');
    expect(writesOf(mine(watcher)?.processes ?? []).filter((p) => p.startsWith('/workspace'))).toEqual([]);
    // Read once.
    expect(await sandbox.followedTraces()).toEqual([]);
  }, 60_000);

  it('keep none for a command whose processes all ended with it', async () => {
    await sandbox.reset();
    await sandbox.runCommand('echo hi > /workspace/a.txt', 10_000);
    await sandbox.killAgentProcesses();
    expect(await sandbox.followedTraces()).toEqual([]);
  }, 60_000);
});
