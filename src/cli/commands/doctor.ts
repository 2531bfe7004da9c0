/** `agent-bench doctor`: checks each piece a run needs and says what to do about each failure. */
import { join } from 'node:path';
import chalk from 'chalk';
import { loadNodeLlamaCpp } from '../../models/gguf-runtime.js';
import { checkEngine, imageStatus, sweepSandboxes } from '../../sandbox/index.js';
import { errorMessage, InfraError } from '../../util/errors.js';
import { packageRoot } from '../../util/package-root.js';
import { checkModelServer } from './doctor-server.js';

export interface DoctorOptions {
  sweep: boolean;
  baseUrl?: string;
  model?: string;
}

export async function doctorCommand(o: DoctorOptions): Promise<void> {
  const ok = (what: string, detail: string): void =>
    void process.stdout.write(`${chalk.green('ok')}    ${what}: ${detail}\n`);
  const bad = (what: string, detail: string, fix: string): void =>
    void process.stdout.write(`${chalk.red('fail')}  ${what}: ${detail}\n      -> ${fix}\n`);
  const note = (what: string, detail: string, fix: string | null): void =>
    void process.stdout.write(
      `${chalk.yellow('note')}  ${what}: ${detail}\n${fix === null ? '' : `      -> ${fix}\n`}`,
    );
  let failures = 0;

  let engineUp = false;
  try {
    const engine = await checkEngine();
    engineUp = true;
    ok('Docker engine', `version ${engine.version ?? 'unknown'}`);
  } catch (err) {
    failures++;
    bad(
      'Docker engine',
      errorMessage(err),
      // The script ships in the package: its full path works from a clone and an install alike.
      `on Debian/Ubuntu run \`sudo bash ${join(packageRoot(), 'scripts', 'provision-docker.sh')}\`, or start Docker / set DOCKER_HOST`,
    );
  }

  if (engineUp) {
    const image = await imageStatus();
    if (image.id !== null) ok('sandbox image', `${image.tag} (${image.id.slice(0, 19)})`);
    else {
      failures++;
      bad(
        'sandbox image',
        `${image.tag} is not built`,
        'run `agent-bench image build` (any run also builds it when missing)',
      );
    }
    if (o.sweep) {
      const removed = await sweepSandboxes({ all: true });
      ok('leftover containers', `removed ${removed}`);
    }
  }

  for (const f of await checkModelServer(o)) {
    if (f.level === 'ok') ok(f.what, f.detail);
    else if (f.level === 'note') note(f.what, f.detail, f.fix);
    else {
      failures++;
      bad(f.what, f.detail, f.fix ?? 'see above');
    }
  }

  // Optional: only `--model gguf:FILE` needs it, so its absence is a note, not a failure.
  try {
    await loadNodeLlamaCpp();
    ok('in-process GGUF backend', 'node-llama-cpp loads');
  } catch (err) {
    note('in-process GGUF backend (--model gguf:FILE)', errorMessage(err), null);
  }

  if (failures > 0) throw new InfraError(`${failures} check(s) failed`);
}
