/**
 * `--parallel` gives each trial in flight its own pod: two trials of a services task run at once,
 * each counts visits on its `api` sidecar, and each sees only its own count. The scripted model
 * holds both trials' first turn until both have asked (so the two pods are up together), and looks
 * at the engine then: two `api` containers, each in the network namespace of another sandbox.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../src/catalogue/native/load.js';
import { LABEL } from '../../src/sandbox/docker/labels.js';
import { SERVICE_LABEL } from '../../src/sandbox/services/service-container.js';
import type { ChatRequestBody, ScriptedReply } from '../helpers/scripted-server.js';
import { benchWithScript, only } from './bench-harness.js';
import { exec, fetch } from './service-replies.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/services-native');

/** This test process's running `api` service containers: id -> the network namespace it joined. */
function apiPods(): Map<string, string> {
  const ids = execFileSync(
    'docker',
    ['ps', '-q', '--filter', `label=${SERVICE_LABEL}=api`, '--filter', `label=${LABEL.pid}=${process.pid}`],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .filter((id) => id !== '');
  return new Map(
    ids.map((id) => [
      id,
      execFileSync('docker', ['inspect', '--format', '{{.HostConfig.NetworkMode}}', id], {
        encoding: 'utf8',
      }).trim(),
    ]),
  );
}

describe('services under --parallel', () => {
  it('each trial in flight has its own pod: its own sidecar, its own state', async () => {
    let firstTurns = 0;
    let bothUp: () => void = () => {};
    const together = new Promise<void>((resolve) => {
      bothUp = resolve;
    });
    let seen = new Map<string, string>();
    // Each trial's step is how many tool results its conversation holds: the two trials' requests
    // interleave, but each conversation says where its own trial is.
    const script = async (body: ChatRequestBody): Promise<ScriptedReply> => {
      const step = body.messages.filter((m) => m.role === 'tool').length;
      if (step === 0) {
        if (++firstTurns === 2) {
          seen = apiPods();
          bothUp();
        }
        await together;
        return exec(fetch('http://api:8000/visits'));
      }
      if (step === 1) return exec(fetch('http://api:8000/visits'));
      if (step === 2) return exec(`${fetch('http://api:8000/secret')} > answer.txt`);
      return { text: 'Done.' };
    };
    const run = await benchWithScript({
      tasks: [loadTaskFolder(FIXTURE)],
      settings: { k: 2 },
      parallel: 2,
      script,
    });
    const result = only(run);
    expect(result.environment.parallel).toBe(2);
    expect(result.trials.map((t) => [t.status, t.passed])).toEqual([
      ['passed', true],
      ['passed', true],
    ]);
    // A shared sidecar would have counted the other trial's visits (3 or 4 for one of them).
    const visits = result.trials.map((t) =>
      [0, 1].map((turn) => t.turn_logs[turn]?.tool_calls[0]?.stdout.trim()),
    );
    expect(visits).toEqual([
      ['1', '2'],
      ['1', '2'],
    ]);
    // While both trials were in their first turn: two sidecars, in two sandboxes' namespaces.
    expect(seen.size).toBe(2);
    const namespaces = [...seen.values()];
    expect(namespaces.every((n) => n.startsWith('container:'))).toBe(true);
    expect(new Set(namespaces).size).toBe(2);
    expect(apiPods().size).toBe(0);
  }, 600_000);
});
