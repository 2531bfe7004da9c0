import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Five projects. `unit`: no Docker engine, no browser, no build step, no real test runners — files run
 * in parallel (`npm test`). `integration`: tests that need the Docker engine and sandbox image,
 * Chromium, the built executable (bin/agent-bench runs dist/), the npm registry, or that drive whole
 * trials through real pytest/node/tsc runs; they share one engine on a 2-core machine, two files at
 * a time (each mostly waits on the engine), after a build (`bash scripts/test.sh` runs all the projects). `slow-clock`:
 * tests that wait minutes of real time doing nothing (a reply that comes after 310 s): their global
 * setup starts the wait when the run starts, and their files, in the integration group, read how it
 * ended, so the minutes pass while the other files run. `proofs`:
 * `agent-bench validate` on the whole suite, after the integration files and alone (its proofs
 * saturate the CPU, which makes timing-bound tests beside them flaky), then its rows are checked. `llama`: the integration tests against a
 * real llama-server, one at a time, after everything else.
 */
/** Against a real llama-server (test/helpers/llama-kit.ts): last, so that CI's background build of it has time. */
const LLAMA = ['test/integration/llama-server*.test.ts'];

/** Minutes of real time, next to no CPU: they run alongside the integration files (test/slow/). */
const SLOW_CLOCK = ['test/slow/**/*.test.ts'];

/** The whole-suite validate (test/proofs/): after the integration files, alone. */
const PROOFS = ['test/proofs/**/*.test.ts'];

const INTEGRATION = [
  'test/integration/**/*.test.ts',
  // Every sandbox test but the pure ones (framing, parsing, listings) needs the engine.
  'test/sandbox/!(units|trace-parse|trace-syntax|trace-stdin|snapshot-listing|relay-protocol|standins).test.ts',
  'test/skills/{bench,mount,validate}.test.ts',
  'test/dashboard/{e2e,e2e-run,e2e-axes,e2e-names,e2e-mcp,run-panel}.test.ts',
  'test/cli/cli.test.ts',
  'test/report/report-command.test.ts',
  // Whole trials through the host's real pytest, node --test and tsc, traced by strace.
  'test/tasks/{tdd-strict,tdd-strict-js,reference-run,ts-typing,refactor-extract-js,wrong-fix-trap}.test.ts',
  'test/kit/mutation-run.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Unit files first and in parallel; integration files after, alone on the machine.
          sequence: { groupOrder: 0 },
          include: ['test/**/*.test.ts'],
          exclude: [...INTEGRATION, ...LLAMA, ...SLOW_CLOCK, ...PROOFS],
          testTimeout: 60_000,
          // Vitest's default is one worker fewer than the cores: one on 2 cores. Unit files mostly
          // wait on child processes and local servers, so two at a time finish sooner even there.
          maxWorkers: Math.max(2, availableParallelism() - 1),
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: INTEGRATION,
          exclude: LLAMA,
          // Two files at a time: most of an integration file's time is spent waiting on the engine
          // (container starts, execs, resets) and on child processes, not computing.
          maxWorkers: 2,
          testTimeout: 120_000,
          // The first run builds the sandbox image (debootstrap on an offline machine): minutes, once.
          hookTimeout: 20 * 60_000,
          globalSetup: ['./test/helpers/build-once.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'slow-clock',
          sequence: { groupOrder: 1 },
          include: SLOW_CLOCK,
          // A group shares its worker count: the integration files' two.
          maxWorkers: 2,
          testTimeout: 15 * 60_000,
          // Starts the slow requests: all global setups run before any file, so their minutes pass
          // while the other projects run.
          globalSetup: ['./test/slow/slow-reply.setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'proofs',
          sequence: { groupOrder: 2 },
          include: PROOFS,
          fileParallelism: false,
          // Cold: tens of minutes on 2 cores.
          testTimeout: 65 * 60_000,
          hookTimeout: 20 * 60_000,
          // The command runs bin/agent-bench, which runs dist/.
          globalSetup: ['./test/helpers/build-once.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'llama',
          sequence: { groupOrder: 2 },
          include: LLAMA,
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 20 * 60_000,
          globalSetup: ['./test/helpers/build-once.ts'],
        },
      },
    ],
  },
});
