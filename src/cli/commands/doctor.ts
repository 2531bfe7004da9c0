/** `agent-bench doctor`: checks each piece a run needs and says what to do about each failure. */
import chalk from 'chalk';
import { loadNodeLlamaCpp } from '../../models/gguf-runtime.js';
import { checkServer, probeLocalServers } from '../../models/probe.js';
import { checkEngine, imageStatus, sweepSandboxes } from '../../sandbox/index.js';
import { errorMessage, InfraError } from '../../util/errors.js';
import { redactUrl } from '../../util/redact-url.js';

export interface DoctorOptions {
  sweep: boolean;
  baseUrl?: string;
}

export async function doctorCommand(o: DoctorOptions): Promise<void> {
  const ok = (what: string, detail: string): void =>
    void process.stdout.write(`${chalk.green('ok')}    ${what}: ${detail}\n`);
  const bad = (what: string, detail: string, fix: string): void =>
    void process.stdout.write(`${chalk.red('fail')}  ${what}: ${detail}\n      -> ${fix}\n`);
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
      'on Debian/Ubuntu run `sudo bash scripts/provision-docker.sh`, or start Docker / set DOCKER_HOST',
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

  if (o.baseUrl !== undefined) {
    try {
      const models = await checkServer(o.baseUrl);
      ok(
        'model server',
        `${redactUrl(o.baseUrl)} serves ${models.length} model(s): ${models.slice(0, 5).join(', ')}`,
      );
    } catch (err) {
      failures++;
      bad('model server', errorMessage(err), 'start the server or fix --base-url');
    }
  } else {
    const found = await probeLocalServers({ timeoutMs: 700 });
    if (found !== null)
      ok('model server', `${found.kind} at ${found.baseUrl}: ${found.models.slice(0, 5).join(', ')}`);
    else {
      process.stdout.write(
        `${chalk.yellow('note')}  model server: none on 127.0.0.1 (:8080 llama-server, :11434 Ollama, :1234 LM Studio)\n` +
          '      -> start one (e.g. `llama-server -m model.gguf --jinja`), or runs fall back to the reference agent (--model oracle)\n',
      );
    }
  }

  // Optional: only `--model gguf:FILE` needs it, so its absence is a note, not a failure.
  try {
    await loadNodeLlamaCpp();
    ok('in-process GGUF backend', 'node-llama-cpp loads');
  } catch (err) {
    process.stdout.write(
      `${chalk.yellow('note')}  in-process GGUF backend (--model gguf:FILE): ${errorMessage(err)}\n`,
    );
  }

  if (failures > 0) throw new InfraError(`${failures} check(s) failed`);
}
