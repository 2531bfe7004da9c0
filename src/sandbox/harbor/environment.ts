/**
 * A Harbor environment on the engine: the task's images, each built on first use and kept for the
 * process, the verifier of a trial, in a fresh container of its own (verifier.ts), and the oracle
 * as the task's reference agent (oracle.ts). Every trial, validate's too, runs in the ordinary
 * sandbox (src/trial/kernel.ts). The engine's client is asked for on first use, after `--docker-host` is applied.
 */
import type Docker from 'dockerode';
import { InternalError } from '../../util/errors.js';
import { tool } from '../tools.js';
import type {
  ExecResult,
  HarborEnvironment,
  HarborEnvironmentSpec,
  HarborSandboxImage,
  HarborVerifierRun,
  Sandbox,
} from '../types.js';
import { WORKSPACE_DIR } from '../types.js';
import { ensureHarborImage } from './image.js';
import { runHarborOracle } from './oracle.js';
import { ensureHarborRunImage, HARBOR_SEED_DIR, type HarborRunImage } from './run-image.js';
import { runHarborVerifier } from './verifier.js';

export class DockerHarborEnvironment implements HarborEnvironment {
  // As the agent, so the workspace is its own; -R keeps links as links. The bundle's cp: the
  // image's may be busybox's, or none.
  readonly setupCommands = [
    `${tool('cp')} -R --preserve=mode,timestamps ${HARBOR_SEED_DIR}/. ${WORKSPACE_DIR}/`,
  ];
  private readonly spec: HarborEnvironmentSpec;
  private readonly client: () => Docker;
  private taskTag: Promise<string> | null = null;
  private verifierTag: Promise<string | undefined> | null = null;
  private runImage: Promise<HarborRunImage> | null = null;
  private separateImage: Promise<HarborRunImage> | null = null;

  constructor(spec: HarborEnvironmentSpec, client: () => Docker) {
    this.spec = spec;
    this.client = client;
  }

  /** The task's image, and a separate verifier's built with it: validate's image row proves both. */
  async taskImage(onProgress?: (line: string) => void): Promise<string> {
    this.taskTag ??= ensureHarborImage(this.client(), this.spec, onProgress);
    const tag = await this.taskTag;
    await this.separateTaskImage(onProgress);
    return tag;
  }

  /** A separate verifier's own image as validate's trials run it (no run-image fitting), or undefined. */
  private separateTaskImage(onProgress?: (line: string) => void): Promise<string | undefined> {
    const image = this.spec.verifier.image;
    this.verifierTag ??=
      image === undefined
        ? Promise.resolve(undefined)
        : ensureHarborImage(
            this.client(),
            { ...this.spec, id: `${this.spec.id}-verifier`, image },
            onProgress,
          );
    return this.verifierTag;
  }

  async sandboxImage(onProgress?: (line: string) => void): Promise<HarborSandboxImage> {
    this.runImage ??= ensureHarborRunImage(this.client(), this.spec, onProgress);
    const { tag, toolsVolume } = await this.runImage;
    return { image: tag, toolsVolume };
  }

  async verify(sandbox: Sandbox): Promise<HarborVerifierRun> {
    // A trial's sandbox was opened from the sandbox image, so it is known by now.
    if (this.runImage === null)
      throw new InternalError(`${this.spec.id}: verified before its image was built`);
    return runHarborVerifier(this.client(), sandbox, this.spec.verifier, await this.verifierImage());
  }

  /**
   * The task's own run image, or a separate verifier's image fitted the same way (its WORKDIR the
   * task's, a link to /workspace where the final workspace is copied), built once.
   */
  private async verifierImage(): Promise<HarborRunImage> {
    const run = await (this.runImage as Promise<HarborRunImage>);
    const image = this.spec.verifier.image;
    if (image === undefined) return run;
    this.separateImage ??= ensureHarborRunImage(this.client(), {
      ...this.spec,
      id: `${this.spec.id}-verifier`,
      image,
      declaredWorkdir: run.workdir,
    });
    return this.separateImage;
  }

  async runOracle(sandbox: Sandbox): Promise<ExecResult> {
    if (this.runImage === null)
      throw new InternalError(`${this.spec.id}: its oracle ran before its image was built`);
    return runHarborOracle(sandbox, this.spec.oracle, (await this.runImage).workdir);
  }
}
