/** Renders a report page to PNG with the system's Chromium (Debian's `chromium`), driven by playwright-core. */
import { existsSync } from 'node:fs';
import { InfraError } from '../util/errors.js';

/** Where distributions put Chromium or Chrome; the first one present is used. */
const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function findChromium(candidates: readonly string[] = CHROMIUM_PATHS): string | null {
  return candidates.find((p) => existsSync(p)) ?? null;
}

/** Flags for a headless Chromium in containers and CI: no sandbox (often unavailable as root), no network chatter. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export async function renderPng(html: string, outPath: string, candidates = CHROMIUM_PATHS): Promise<void> {
  const executablePath = findChromium(candidates);
  if (executablePath === null) {
    throw new InfraError(
      `--png needs Chromium (looked for ${candidates.join(', ')}): install it (Debian: apt-get install chromium), or drop --png and open the HTML`,
    );
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1040, height: 800 }, colorScheme: 'light' });
    // The page is self-contained (its CSP forbids every fetch), so load it as content, offline.
    await page.setContent(html, { waitUntil: 'load' });
    await page.screenshot({ path: outPath, fullPage: true });
  } finally {
    await browser.close();
  }
}
