/**
 * The sandbox conformance suite (Inspect AI's sandbox `self_check`): one list of behaviour tests
 * that every Sandbox implementation runs, the Docker one and the in-memory fakes alike, so that a
 * fake cannot drift from the contract that src/sandbox/types.ts writes down. It tests that
 * contract as written, not the Docker sandbox's accidents. What an implementation cannot do is
 * declared in its capabilities, and the tests that need it are reported as skipped.
 */
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import type { Sandbox } from '../../src/sandbox/types.js';
import { commandCases } from './conformance/commands.js';
import type { Conformance, SandboxCapabilities } from './conformance/context.js';
import { fileCases } from './conformance/files.js';
import { lifecycleCases } from './conformance/lifecycle.js';
import { workspaceCases } from './conformance/workspace.js';

/** What a real sandbox can do: all of it. A fake says what it lacks. */
const EVERYTHING: SandboxCapabilities = { shell: true, permissions: true, spawn: true };

/**
 * Declares the suite over the sandbox `open` returns: one sandbox for the whole suite, reset
 * before every case (as between trials), disposed at the end.
 */
export function sandboxConformance(
  name: string,
  open: () => Promise<Sandbox>,
  options: { capabilities?: Partial<SandboxCapabilities>; openTimeoutMs?: number } = {},
): void {
  const can = { ...EVERYTHING, ...options.capabilities };
  let opened: Sandbox | null = null;
  let cwdAtOpen = '';
  const ctx: Conformance = {
    can,
    get sb() {
      if (opened === null) throw new Error(`${name}: the sandbox did not open`);
      return opened;
    },
    get cwdAtOpen() {
      return cwdAtOpen;
    },
  };

  describe.sequential(`sandbox conformance: ${name}`, () => {
    beforeAll(async () => {
      opened = await open();
      cwdAtOpen = opened.cwd;
    }, options.openTimeoutMs);
    afterAll(async () => {
      await opened?.dispose();
    });
    beforeEach(async () => {
      await ctx.sb.reset();
    });

    commandCases(ctx);
    fileCases(ctx);
    workspaceCases(ctx);
    // Last: it ends with dispose.
    lifecycleCases(ctx);
  });
}
