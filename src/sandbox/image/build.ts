/** `docker build` of the sandbox image through the engine API, with only the image's inputs as context. */
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { pack } from 'tar-stream';
import { engineError } from '../docker/engine.js';
import type { InputFile } from './inputs.js';
import { followProgress } from './progress.js';

export interface BuildRequest {
  tag: string;
  base: string;
  /** 'none' on the offline path: every RUN step must work without a network. */
  networkMode?: 'none';
  onProgress: (line: string) => void;
}

export async function buildSandboxImage(
  client: Docker,
  files: InputFile[],
  req: BuildRequest,
): Promise<void> {
  const context = await contextTar(files);
  let stream: NodeJS.ReadableStream;
  try {
    stream = await client.buildImage(Readable.from([context]), {
      t: req.tag,
      buildargs: { BASE: req.base },
      rm: true,
      forcerm: true,
      ...(req.networkMode === undefined ? {} : { networkmode: req.networkMode }),
    });
  } catch (err) {
    throw engineError(`building ${req.tag}`, err);
  }
  await followProgress(client, stream, `building ${req.tag}`, (e) => {
    // Step headers and the apt-get skip note are what a person watching wants to see.
    for (const line of (e.stream ?? '').split('\n')) {
      if (/^Step \d+\/\d+ :/.test(line) || line.startsWith('agent-bench:'))
        req.onProgress(`  ${clip(line.trim(), 100)}`);
    }
  });
}

async function contextTar(files: InputFile[]): Promise<Buffer> {
  const p = pack();
  // A fixed mtime: the build cache then depends on content only.
  const mtime = new Date(0);
  for (const f of files) p.entry({ name: f.path, mode: f.mode, mtime }, f.content);
  p.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of p) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function clip(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max - 3)}...`;
}
