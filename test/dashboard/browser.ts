/** Debian's Chromium driven by playwright-core, as the e2e tests and `report radar --png` use it. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../src/report/png.js';

const CHROMIUM = '/usr/bin/chromium';
export const TEST_OUTPUT = join(import.meta.dirname, '..', '..', 'test-output');

export function launchChromium(): Promise<Browser> {
  mkdirSync(TEST_OUTPUT, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
