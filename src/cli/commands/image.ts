import { checkEngine, ensureImage } from '../../sandbox/index.js';

export async function imageBuildCommand(): Promise<void> {
  await checkEngine();
  const image = await ensureImage({ onProgress: (line) => void process.stderr.write(`${line}\n`) });
  process.stdout.write(`${image.tag} ${image.id} (${image.source})\n`);
}
