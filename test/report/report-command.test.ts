import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { reportCardCommand, reportMatrixCommand, reportRadarCommand } from '../../src/cli/commands/report.js';
import { renderPng } from '../../src/report/png.js';
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

  it('--png without a browser fails with one clear infrastructure error (exit 3)', async () => {
    const err = await renderPng('<p>x</p>', join(out, 'none.png'), ['/nonexistent/chromium']).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InfraError);
    expect((err as InfraError).exitCode).toBe(3);
    expect(existsSync(join(out, 'none.png'))).toBe(false);
  });
});
