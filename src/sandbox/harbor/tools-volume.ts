/**
 * The tools bundle (sandbox/tools/bundle.sh) for an image that lacks it, a Harbor task's own: a
 * named volume filled once from the sandbox image's bundle, then mounted read-only at the bundle's
 * place in every container of that image (the run image's setup, the sandbox, the verifier,
 * validate's trials). A volume works on any engine, a remote one too (no host path) and Docker
 * 20.10 (no image mounts). It is named by the sandbox image, so a changed bundle gets a new volume.
 *
 * Filling is explicit rather than the engine's copy into a fresh volume, so that a half-filled
 * volume is never used: the filler mounts the volume apart from the bundle, copies it, and marks
 * the volume complete last; a second filler meanwhile (another agent-bench process) waits for
 * that mark.
 */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import { ENGINE_CALL_MS, withDeadline } from '../docker/deadline.js';
import { engineError } from '../docker/engine.js';
import { ensureImage } from '../image/ensure.js';
import { TOOLS_DIR, tool } from '../tools.js';
import { runOnce } from './one-shot.js';

const FILL_DIR = '/fill';
const FILL_MS = 180_000;
const LABEL = 'agent-bench.tools';

const FILL_SCRIPT = `set -eu
[ -e ${FILL_DIR}/.complete ] && exit 0
if mkdir ${FILL_DIR}/.filling 2>/dev/null; then
  cp -a ${TOOLS_DIR}/. ${FILL_DIR}/
  : >${FILL_DIR}/.complete
  exit 0
fi
for _ in $(seq 1 1200); do
  [ -e ${FILL_DIR}/.complete ] && exit 0
  sleep 0.1
done
echo "another filling of this volume never finished" >&2
exit 1
`;

const filled = new WeakMap<Docker, Promise<string>>();

/** The name of the filled tools volume of the current sandbox image (built first if need be). */
export function ensureToolsVolume(client: Docker, onProgress?: (line: string) => void): Promise<string> {
  let volume = filled.get(client);
  if (volume === undefined) {
    volume = fill(client, onProgress);
    filled.set(client, volume);
    volume.catch(() => filled.delete(client));
  }
  return volume;
}

async function fill(client: Docker, onProgress?: (line: string) => void): Promise<string> {
  const image = await ensureImage({ client, ...(onProgress === undefined ? {} : { onProgress }) });
  const name = `agent-bench-tools-${image.id.replace(/^sha256:/, '').slice(0, 16)}`;
  const what = `filling the tools volume ${name}`;
  try {
    await withDeadline(
      (abortSignal) => client.createVolume({ Name: name, Labels: { [LABEL]: image.tag }, abortSignal }),
      ENGINE_CALL_MS,
      `creating volume ${name}`,
    );
  } catch (err) {
    throw engineError(`creating volume ${name}`, err);
  }
  const options: Docker.ContainerCreateOptions = {
    Image: image.tag,
    User: '0:0',
    Entrypoint: [tool('bash')],
    Cmd: ['-c', FILL_SCRIPT],
    Env: [`PATH=${TOOLS_DIR}/bin`],
    NetworkDisabled: true,
    HostConfig: { NetworkMode: 'none', Mounts: [{ Type: 'volume', Source: name, Target: FILL_DIR }] },
  };
  try {
    await runOnce(client, options, what, FILL_MS, async () => {});
  } catch (err) {
    // A filler that died half-way leaves the volume marked as being filled: only removing it helps.
    if (err instanceof InfraError)
      throw new InfraError(`${err.message}; remove it (docker volume rm ${name}) and try again`, {
        cause: err,
      });
    throw err;
  }
  return name;
}
