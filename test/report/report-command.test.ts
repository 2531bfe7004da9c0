import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { reportCardCommand, reportMatrixCommand, reportRadarCommand } from '../../src/cli/commands/report.js';
import type { RadarData } from '../../src/report/axes.js';
import { CHROMIUM_ARGS, renderPng } from '../../src/report/png.js';
import { renderRadarHtml } from '../../src/report/radar.js';
import { InfraError, UsageError } from '../../src/util/errors.js';
import { FIXTURE_DIR, LLAMA, QWEN } from '../fixtures/results-set.js';

const out = mkdtempSync(join(tmpdir(), 'ab-report-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('agent-bench report', () => {
  it('matrix prints Markdown to stdout by default and honours --format and --models', async () => {
    const stdout = capture();
    await reportMatrixCommand({ resultsDir: FIXTURE_DIR, format: 'md', stdout: stdout.stream });
    expect(stdout.text()).toMatch(/^\| task \|/);
    const csv = capture();
    await reportMatrixCommand({ resultsDir: FIXTURE_DIR, format: 'csv', models: QWEN, stdout: csv.stream });
    expect(csv.text().trimEnd().split('\r\n')).toHaveLength(4);
  });

  it('rejects bad options with a usage error (exit 2)', async () => {
    await expect(reportMatrixCommand({ resultsDir: FIXTURE_DIR, format: 'xml' })).rejects.toBeInstanceOf(
      UsageError,
    );
    await expect(reportRadarCommand({ resultsDir: FIXTURE_DIR, models: 'a,b,c,d,e' })).rejects.toThrow(
      /1 to 4/,
    );
    await expect(reportRadarCommand({ resultsDir: FIXTURE_DIR, models: 'nobody' })).rejects.toBeInstanceOf(
      UsageError,
    );
    await expect(
      reportCardCommand({ resultsDir: FIXTURE_DIR, model: 'nobody', format: 'html' }),
    ).rejects.toThrow(/no results for model nobody/);
    await expect(reportMatrixCommand({ resultsDir: join(out, 'empty'), format: 'md' })).rejects.toThrow(
      /no results files/,
    );
  });

  it('radar and card write files with --out', async () => {
    const stderr = capture();
    await reportRadarCommand({
      resultsDir: FIXTURE_DIR,
      models: `${QWEN},${LLAMA},ghost`,
      out: join(out, 'r.html'),
      stderr: stderr.stream,
    });
    expect(readFileSync(join(out, 'r.html'), 'utf8')).toContain('<svg');
    expect(stderr.text()).toContain('no results for model ghost');
    await reportCardCommand({
      resultsDir: FIXTURE_DIR,
      model: LLAMA,
      format: 'md',
      out: join(out, 'card.md'),
      stderr: stderr.stream,
    });
    expect(readFileSync(join(out, 'card.md'), 'utf8')).toMatch(/^# llama3\.2:3b/);
  });

  it('radar --png renders a PNG with the system Chromium', async () => {
    const png = join(out, 'radar.png');
    await reportRadarCommand({
      resultsDir: FIXTURE_DIR,
      models: `${QWEN},${LLAMA}`,
      png: true,
      out: png,
      stderr: capture().stream,
    });
    const bytes = readFileSync(png);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    // Width 1040 px at scale 1, read from the IHDR chunk.
    expect(bytes.readUInt32BE(16)).toBe(1040);
  });

  it('card --tasks limits the card to those tasks; tasks not run are counted, not failed', async () => {
    const md = capture();
    await reportCardCommand({
      resultsDir: FIXTURE_DIR,
      model: QWEN,
      format: 'md',
      tasks: 'debug_python_v1, landing_page_v1,never_run_v1',
      stdout: md.stream,
    });
    expect(md.text()).toContain('2/2 tasks pass^k (2/3 tasks run)');
    expect(md.text()).not.toContain('tdd_order_v1');
    await expect(
      reportCardCommand({ resultsDir: FIXTURE_DIR, model: QWEN, format: 'md', tasks: 'never_run_v1' }),
    ).rejects.toThrow(/no results for model qwen3:8b .* for tasks never_run_v1/);
    await expect(
      reportCardCommand({ resultsDir: FIXTURE_DIR, model: QWEN, format: 'md', tasks: ' , ' }),
    ).rejects.toBeInstanceOf(UsageError);
  });

  it('radar labels, as Chromium draws them, stay inside the view box and apart', async () => {
    const tasks = Array.from({ length: 16 }, (_, i) =>
      i % 2 === 0 ? `skill_run_v1_imitate_dashboard_variant_${i}` : `tdd_order_v${i}`,
    );
    const axes = [
      ...tasks.map((t) => ({ id: `task:${t}`, label: t, formula: 'f' })),
      ...[
        'Process discipline',
        'Reliability',
        'No tool hallucination',
        'Finishes on its own',
        'Token economy',
      ].map((label) => ({ id: label, label, formula: 'f' })),
    ];
    const data: RadarData = {
      axes,
      series: ['hf.co/unsloth/Qwen3-30B-A3B-Instruct-2507-GGUF:Q4_K_XL', 'llama3.2:3b'].map((model, m) => ({
        model,
        label: model,
        values: axes.map((_, i) => ((i + m) % 5) / 4),
      })),
    };
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1040, height: 800 } });
      await page.setContent(renderRadarHtml(data), { waitUntil: 'load' });
      // The page's own DOM types are not in this project's lib: the shapes used are declared here.
      type Rect = { x: number; y: number; width: number; height: number };
      type SvgText = { textContent: string | null; getBBox(): Rect };
      type Svg = { viewBox: { baseVal: Rect }; querySelectorAll(s: string): Iterable<SvgText> };
      type Doc = { document: { querySelector(s: string): Svg } };
      const found = await page.evaluate(() => {
        const svg = (globalThis as unknown as Doc).document.querySelector('svg.ab-radar');
        const view = svg.viewBox.baseVal;
        const boxes = [...svg.querySelectorAll('text')].map((t) => {
          const b = t.getBBox();
          return { text: t.textContent ?? '', x: b.x, y: b.y, w: b.width, h: b.height };
        });
        return { view: { w: view.width, h: view.height }, boxes };
      });
      expect(found.boxes.length).toBeGreaterThan(axes.length);
      const outside = found.boxes.filter(
        (b) => b.x < 0 || b.y < 0 || b.x + b.w > found.view.w || b.y + b.h > found.view.h,
      );
      expect(outside.map((b) => b.text)).toEqual([]);
      // Glyph boxes include the font's ascent and descent, so lines of one label touch: compare labels.
      const clashes = found.boxes.flatMap((a, i) =>
        found.boxes
          .slice(i + 1)
          .filter((b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h - 1 && b.y < a.y + a.h - 1)
          .map((b) => `${a.text} / ${b.text}`),
      );
      expect(clashes).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('--png without a browser fails with one clear infrastructure error (exit 3)', async () => {
    const err = await renderPng('<p>x</p>', join(out, 'none.png'), ['/nonexistent/chromium']).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InfraError);
    expect((err as InfraError).exitCode).toBe(3);
    expect(existsSync(join(out, 'none.png'))).toBe(false);
  });
});
