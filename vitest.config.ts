import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests share one Docker engine on a 2-core machine: run files one at a time.
    fileParallelism: false,
    testTimeout: 120_000,
    // The first run builds the sandbox image (debootstrap on an offline machine): minutes, once.
    hookTimeout: 20 * 60_000,
    globalSetup: ['./test/helpers/build-once.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
