/**
 * The base image when no registry answers: sandbox/build-offline-base.sh debootstraps the
 * package list from the host's Debian mirror into a tar, which is imported as the base.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import { engineError } from '../docker/engine.js';
import { followProgress } from './progress.js';

export async function buildOfflineBase(
  client: Docker,
  root: string,
  tag: string,
  onProgress: (line: string) => void,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-bench-base-'));
  const tar = join(dir, 'rootfs.tar');
  try {
    await runScript(join(root, 'sandbox', 'build-offline-base.sh'), tar, onProgress);
    const [repo, version] = tag.split(':') as [string, string];
    let stream: NodeJS.ReadableStream;
    try {
      // A path, not a buffer: dockerode streams the file (a few hundred MB).
      stream = await client.importImage(tar, { repo, tag: version });
    } catch (err) {
      throw engineError(`importing ${tag}`, err);
    }
    await followProgress(client, stream, `importing ${tag}`, () => {});
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runScript(script: string, out: string, onProgress: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script, out], { stdio: ['ignore', 'pipe', 'pipe'] });
    const tail: string[] = [];
    const onLine = (chunk: Buffer): void => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        tail.push(line);
        if (tail.length > 15) tail.shift();
        // debootstrap's "I: Retrieving ..." lines number in the hundreds; show the rest.
        if (!line.startsWith('I: ')) onProgress(`  ${line}`);
      }
    };
    child.stdout.on('data', onLine);
    child.stderr.on('data', onLine);
    child.on('error', (err) =>
      reject(new InfraError(`cannot run ${script}: ${err.message}`, { cause: err })),
    );
    child.on('close', (code) => {
      if (code === 0) resolve();
      else
        reject(
          new InfraError(
            `building the offline base image failed (exit ${code}): ${tail.slice(-5).join(' | ')}`,
          ),
        );
    });
  });
}
