/**
 * A Harbor environment as a task opens it: nothing reaches the engine until an image is asked for
 * (so `--docker-host`, applied after tasks are selected, is the engine it uses), and its verifier
 * refuses a sandbox that was not opened from its image.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harborEnvironmentSpec } from '../../../src/catalogue/harbor/environment.js';
import { loadHarborFolder } from '../../../src/catalogue/harbor/load.js';
import { DockerHarborEnvironment } from '../../../src/sandbox/harbor/environment.js';
import type { Sandbox } from '../../../src/sandbox/types.js';
import { InternalError } from '../../../src/util/errors.js';

const SOUND = join(import.meta.dirname, '../../tasks/fixtures/harbor/sound');

function environment() {
  let asked = 0;
  const env = new DockerHarborEnvironment(harborEnvironmentSpec(loadHarborFolder(SOUND)), () => {
    asked++;
    throw new Error('no engine in a unit test');
  });
  return { env, asked: () => asked };
}

describe('a Harbor environment', () => {
  it('asks for the engine only when an image is wanted', async () => {
    const { env, asked } = environment();
    expect(env.setupCommands).toEqual([
      // The bundle's cp, not the image's (which may be busybox's, or none).
      '/opt/agent-bench/bin/cp -R --preserve=mode,timestamps /opt/agent-bench-harbor/seed/. /workspace/',
    ]);
    expect(asked()).toBe(0);
    await expect(env.taskImage()).rejects.toThrow('no engine in a unit test');
    await expect(env.sandboxImage()).rejects.toThrow('no engine in a unit test');
    expect(asked()).toBe(2);
  });

  it('will not verify a sandbox before its image was built', async () => {
    const { env, asked } = environment();
    await expect(env.verify({} as Sandbox)).rejects.toThrow(
      new InternalError('sound: verified before its image was built'),
    );
    expect(asked()).toBe(0);
  });
});
