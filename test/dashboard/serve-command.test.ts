import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/commands/serve.js';
import { UsageError } from '../../src/util/errors.js';
import { FIXTURE_DIR } from '../fixtures/results-set.js';

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

async function serveOnce(host: string): Promise<{ log: string; status: number }> {
  const stderr = capture();
  let stop = (): void => {};
  const until = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const serving = serveCommand({ resultsDir: FIXTURE_DIR, host, port: 0, stderr: stderr.stream, until });
  let url: string | undefined;
  for (let i = 0; i < 100 && url === undefined; i++) {
    url = /dashboard: (http:\/\/\S+)/.exec(stderr.text())?.[1];
    await new Promise((r) => setTimeout(r, 20));
  }
  const port = new URL(url ?? 'http://x:1/').port;
  const res = await fetch(`http://127.0.0.1:${port}/api/index`);
  stop();
  await serving;
  return { log: stderr.text(), status: res.status };
}

describe('agent-bench serve', () => {
  it('binds to loopback without a warning, and stops when asked', async () => {
    const { log, status } = await serveOnce('127.0.0.1');
    expect(status).toBe(200);
    expect(log).toMatch(/^agent-bench dashboard: http:\/\/127\.0\.0\.1:\d+\//);
    expect(log).not.toContain('warning');
    expect(log).toContain('stopping');
  });

  it('warns when bound beyond this machine', async () => {
    const { log, status } = await serveOnce('0.0.0.0');
    expect(status).toBe(200);
    expect(log).toContain('warning: bound to 0.0.0.0');
  });

  it('rejects a bad port or model server URL as usage errors', async () => {
    await expect(
      serveCommand({ resultsDir: FIXTURE_DIR, host: '127.0.0.1', port: 70000 }),
    ).rejects.toBeInstanceOf(UsageError);
    await expect(
      serveCommand({ resultsDir: FIXTURE_DIR, host: '127.0.0.1', port: 0, baseUrl: 'ftp://x' }),
    ).rejects.toBeInstanceOf(UsageError);
  });
});
