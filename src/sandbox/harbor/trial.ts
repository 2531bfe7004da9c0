/**
 * One Harbor trial in its own container, as Harbor runs it: a `sleep infinity` container of the
 * task's image, the "agent" (the oracle, solution/ at /solution running solve.sh, or nothing), then
 * tests/ copied to /tests only after the agent is done and tests/test.sh run as root in the
 * image's WORKDIR (as the engine built it), under task.toml's verifier timeout, and the reward read from
 * /logs/verifier. The container keeps what sandbox rules a Harbor image allows: no network (this
 * version never gives one, even to a task that allows internet: a verifier that installs its test
 * tools at verify time fails here), no new privileges, task.toml's memory and cpus, a process
 * limit. The root filesystem stays writable: Harbor tasks write where their image puts things
 * (/app, /logs, site-packages), and the container is thrown away after one trial. A task with a
 * separate verifier runs test.sh in a container of that image instead, beside this one, on a
 * read-only copy of the oracle's work (verifier-copy.ts), as a model's trial is verified.
 */
import type Docker from 'dockerode';
import { toolsMount } from '../docker/container.js';
import { engineError } from '../docker/engine.js';
import { type SandboxLabels, sandboxLabels } from '../docker/labels.js';
import { rawExec } from '../docker/raw-exec.js';
import { unpackFiles } from '../docker/tar.js';
import { hostEntries } from '../services/hosts.js';
import { ServicePod } from '../services/pod.js';
import { tool, VERIFIER_BIN } from '../tools.js';
import {
  HARBOR_OUTPUT_TAIL,
  type HarborAgent,
  type HarborEnvironmentSpec,
  type HarborSandboxImage,
  type HarborScripts,
  type HarborTrialResult,
} from '../types.js';
import { collect } from './image.js';
import { readReward } from './reward.js';
import { workingDir } from './run-image.js';
import { scriptsTar } from './scripts-tar.js';
import { outputTail } from './verifier.js';
import { copyForVerifier, removeVerifierCopy } from './verifier-copy.js';

const PIDS = 1024;
const OUTPUT_CAP = 64 * 1024;
/** Where a script's whole output is kept while it runs, out of /logs (a test.sh may empty that). */
const OUTPUT_DIR = '/.agent-bench-output';

/** The task's image, and a separate verifier's (tests/ built, or the image it names) when it has one. */
export type HarborTrialImages = HarborSandboxImage & { verifierImage?: string };

export async function runHarborTrial(
  client: Docker,
  spec: HarborEnvironmentSpec,
  image: HarborTrialImages,
  agent: HarborAgent,
  labels: SandboxLabels = {},
): Promise<HarborTrialResult> {
  // task.toml's workdir, else the engine's word, not the Dockerfile's: a relative WORKDIR resolves
  // against the base's own.
  const workdir = spec.declaredWorkdir ?? (await workingDir(client, image.image)) ?? spec.workdir;
  const container = await start(client, spec, image, workdir, labels);
  // The compose file's sidecars around it, as around a model's sandbox (services/pod.ts).
  const pod = spec.services === undefined ? null : new ServicePod(client, spec.services, image.image, labels);
  let separate: Separate | null = null;
  try {
    await pod?.start(container.id);
    let agentExit: number | null = null;
    let agentOutput = '';
    if (agent === 'oracle') {
      await put(container, spec.oracle, 'solution', '/solution');
      const solve = await shell(
        container,
        workdir,
        '/solution/solve.sh',
        spec.oracle.timeoutSec,
        spec.oracle.env,
      );
      agentExit = solve.exitCode;
      agentOutput = outputTail(solve.stdout.toString('utf8'));
    }
    // A separate verifier judges a read-only copy of the agent's work in a container of its own
    // image, as `run`'s does (verifier.ts); the shared one runs where the agent ran, as Harbor's.
    if (image.verifierImage !== undefined)
      separate = await startSeparate(client, spec, container, workdir, labels, {
        image: image.verifierImage,
        toolsVolume: image.toolsVolume,
        inPod: pod !== null,
      });
    const judge = separate?.container ?? container;
    await put(judge, spec.verifier, 'tests', '/tests');
    const verifier = await shell(
      judge,
      workdir,
      '/tests/test.sh',
      spec.verifier.timeoutSec,
      spec.verifier.env,
    );
    const files = await logs(judge);
    return {
      agentExit,
      agentOutput,
      verifier: {
        reward: readReward(
          files.get('/verifier/reward.txt')?.toString('utf8') ?? null,
          files.get('/verifier/reward.json')?.toString('utf8') ?? null,
        ),
        exitCode: verifier.exitCode,
        // timeout(1) exits 124 when it kills the script.
        timedOut: verifier.deadlineHit || verifier.exitCode === 124,
        // The oracle (or nothing) acted here, never a model's code.
        tampered: null,
        output: outputTail(`${verifier.stdout.toString('utf8')}${verifier.stderr.toString('utf8')}`),
      },
    };
  } finally {
    await separate?.container.remove({ force: true }).catch(() => {});
    if (separate !== null) await removeVerifierCopy(client, separate.copy);
    await pod?.dispose();
    await container.remove({ force: true }).catch(() => {});
  }
}

interface Separate {
  container: Docker.Container;
  /** The volume of its copy of the agent's work. */
  copy: string;
}

/**
 * The separate verifier's container: its image, the agent's work (the declared artifacts, else
 * the workdir) mounted read-only at the workdir, in the pod's network namespace when there is one.
 */
async function startSeparate(
  client: Docker,
  spec: HarborEnvironmentSpec,
  agent: Docker.Container,
  workdir: string,
  labels: SandboxLabels,
  o: { image: string; toolsVolume: string; inPod: boolean },
): Promise<Separate> {
  const copy = await copyForVerifier(client, agent, workdir, spec.verifier.artifacts, o.image, labels);
  try {
    const container = await start(
      client,
      spec,
      { image: o.image, toolsVolume: o.toolsVolume },
      workdir,
      labels,
      {
        mounts: [copy.mount(workdir)],
        ...(o.inPod ? { networkOf: agent.id } : {}),
      },
    );
    return { container, copy: copy.volume };
  } catch (err) {
    await removeVerifierCopy(client, copy.volume);
    throw err;
  }
}

async function start(
  client: Docker,
  spec: HarborEnvironmentSpec,
  { image, toolsVolume }: HarborSandboxImage,
  workdir: string,
  labels: SandboxLabels,
  extra: { mounts?: Docker.MountSettings[]; networkOf?: string } = {},
): Promise<Docker.Container> {
  const memory = spec.resources.memoryMb * 1024 * 1024;
  // A container joining another's network namespace shares its /etc/hosts, the services' names too.
  const hosts = extra.networkOf === undefined ? hostEntries(spec.services) : [];
  const network =
    extra.networkOf === undefined
      ? { NetworkMode: 'none', ...(hosts.length === 0 ? {} : { ExtraHosts: hosts }) }
      : { NetworkMode: `container:${extra.networkOf}` };
  let container: Docker.Container;
  try {
    container = await client.createContainer({
      Image: image,
      User: '0:0',
      Entrypoint: [tool('sleep')],
      Cmd: ['infinity'],
      WorkingDir: workdir,
      Labels: sandboxLabels(labels),
      // As the sandbox's (container.ts): a disabled network gets no /etc/hosts for the services' names.
      NetworkDisabled: hosts.length === 0 && extra.networkOf === undefined,
      HostConfig: {
        ...network,
        SecurityOpt: ['no-new-privileges'],
        Init: true,
        Memory: memory,
        MemorySwap: memory,
        PidsLimit: PIDS,
        NanoCpus: Math.round(spec.resources.cpus * 1e9),
        Mounts: [toolsMount(toolsVolume), ...(extra.mounts ?? [])],
        AutoRemove: false,
      },
    });
  } catch (err) {
    throw engineError(`creating a container from ${image}`, err);
  }
  try {
    await container.start();
  } catch (err) {
    await container.remove({ force: true }).catch(() => {});
    throw engineError(`starting a container of Harbor task ${spec.id}`, err);
  }
  return container;
}

/** The task folder's `name/` files at `target` (root-owned, as Harbor uploads them). */
async function put(
  container: Docker.Container,
  scripts: HarborScripts,
  name: string,
  target: string,
): Promise<void> {
  try {
    await container.putArchive(await scriptsTar(scripts, target), { path: '/' });
  } catch (err) {
    throw engineError(`copying ${name}/ into the container`, err);
  }
}

/**
 * `bash script` as root in the task's WORKDIR, as Harbor runs solve.sh and test.sh: the bundle's
 * shell, timeout and bash (the image need have none), the image's PATH for the script, with the
 * offline stand-ins (sandbox/verifier-bin/) last. Its stdout and stderr go to a file as they come,
 * and the file's end is what the exec prints (the failure is there).
 */
function shell(
  container: Docker.Container,
  workdir: string,
  script: string,
  timeoutSec: number,
  env: Record<string, string> = {},
) {
  return rawExec(container, {
    argv: [
      tool('sh'),
      '-c',
      `${tool('mkdir')} -p /logs/verifier /logs/agent ${OUTPUT_DIR} && cd "$1" || exit 1
out=${OUTPUT_DIR}/\${3##*/}.out
PATH="$PATH:${VERIFIER_BIN}" ${tool('timeout')} -k 5 "$2" ${tool('bash')} "$3" >"$out" 2>&1
rc=$?
${tool('tail')} -c ${HARBOR_OUTPUT_TAIL} "$out"
exit $rc`,
      'harbor',
      workdir,
      String(Math.ceil(timeoutSec)),
      script,
    ],
    user: 'root',
    env,
    // The in-container timeout kills the script; this is the backstop if the engine hangs.
    deadlineMs: (timeoutSec + 30) * 1000,
    maxStdoutBytes: OUTPUT_CAP,
    maxStderrBytes: OUTPUT_CAP,
  });
}

/** /logs' regular files, keyed by path under /logs. */
async function logs(container: Docker.Container): Promise<Map<string, Buffer>> {
  let tar: Buffer;
  try {
    tar = await collect(await container.getArchive({ path: '/logs' }));
  } catch (err) {
    throw engineError('reading /logs from the container', err);
  }
  const byPath = new Map<string, Buffer>();
  for (const [path, bytes] of await unpackFiles(tar)) byPath.set(path.replace(/^\/logs(?=\/)/, ''), bytes);
  return byPath;
}
