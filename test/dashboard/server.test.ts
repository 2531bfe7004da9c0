import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../src/dashboard/server.js';
import { modelSlug } from '../../src/results/layout.js';
import { LLAMA, QWEN } from '../fixtures/results-set.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';
import { copyFixtures, pageHeaders, raw, startTestDashboard } from './harness.js';

let dash: Dashboard;
let models: ScriptedServer;
let fixtures: ReturnType<typeof copyFixtures>;
const qwenFile = 'debug_python_v1__qwen3-8b-801dca__20250102T100000000Z-0002.json';
const artifactBase = `/artifacts/landing_page_v1/${modelSlug(QWEN)}/trial-0`;

beforeAll(async () => {
  fixtures = copyFixtures();
  // Something outside the artifacts folder, and a link inside it that points there.
  writeFileSync(join(fixtures.dir, '..', 'secret.txt'), 'do not serve');
  symlinkSync(join(fixtures.dir, '..', 'secret.txt'), join(fixtures.dir, 'artifacts', 'escape.txt'));
  models = await startScriptedServer({ scripts: { 'qwen-test': [] }, extraModels: ['llama-test'] });
  dash = await startTestDashboard({ resultsDir: fixtures.dir, baseUrl: models.baseUrl });
});

afterAll(async () => {
  await dash.close();
  await models.close();
  fixtures.remove();
});

describe('dashboard pages and reads', () => {
  it('serves the page with its session token and a strict CSP', async () => {
    const res = await raw(dash.port, 'GET', '/');
    expect(res.status).toBe(200);
    expect(res.body).toContain(`<meta name="agent-bench-token" content="${dash.token}">`);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await raw(dash.port, 'GET', '/static/app.js')).status).toBe(200);
    expect((await raw(dash.port, 'GET', '/static/../server.ts')).status).toBe(404);
  });

  it('lists result summaries, then one result without transcripts, then one transcript', async () => {
    const index = JSON.parse((await raw(dash.port, 'GET', '/api/index')).body);
    expect(index.results).toHaveLength(9);
    expect(index.results.filter((r: { newest: boolean }) => r.newest)).toHaveLength(8);
    const result = JSON.parse((await raw(dash.port, 'GET', `/api/result?file=${qwenFile}`)).body);
    expect(result.trials).toHaveLength(3);
    expect(result.trials[0].turn_logs).toBeUndefined();
    const trial = JSON.parse((await raw(dash.port, 'GET', `/api/trial?file=${qwenFile}&index=1`)).body);
    expect(trial.trial.turn_logs).toHaveLength(5);
    expect(trial.trial.turn_logs[1].tool_calls[0].stdout).toContain('1 failed, 1 passed');
    expect((await raw(dash.port, 'GET', '/api/result?file=../../etc/passwd')).status).toBe(404);
    expect((await raw(dash.port, 'GET', `/api/trial?file=${qwenFile}&index=7`)).status).toBe(404);
  });

  it('lists artifacts from the trial record and serves them sandboxed, under every route', async () => {
    const landing = 'landing_page_v1__qwen3-8b-801dca__20250102T120000000Z-0004.json';
    const trial = JSON.parse((await raw(dash.port, 'GET', `/api/trial?file=${landing}&index=0`)).body);
    expect(trial.artifacts.map((a: { path: string; kind: string }) => `${a.path}:${a.kind}`)).toEqual([
      'data.bin:binary',
      'NOTES.txt:text',
      'site/index.html:html',
      'site/logo.svg:image',
      'site/style.css:text',
    ]);
    const page = await raw(dash.port, 'GET', `${artifactBase}/site/index.html`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/^sandbox allow-scripts;/);
    expect(page.headers['content-security-policy']).toContain("connect-src 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const svg = await raw(dash.port, 'GET', `${artifactBase}/site/logo.svg`);
    expect(svg.headers['content-security-policy']).toMatch(/^sandbox/);
    const download = await raw(dash.port, 'GET', `${artifactBase}/site/index.html?download=1`);
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-disposition']).toBe('attachment; filename="index.html"');
  });

  it('answers 404 to every way out of the artifacts folder', async () => {
    for (const path of [
      '/artifacts/../secret.txt',
      '/artifacts/%2e%2e/%2e%2e/secret.txt',
      '/artifacts/landing_page_v1%2f..%2f..%2f..%2fsecret.txt',
      '/artifacts/..%2f..%2fsecret.txt',
      '/artifacts/escape.txt',
      '/artifacts/%00',
      '/artifacts/%E0%A4%A',
      `/artifacts/${qwenFile}`,
    ]) {
      const res = await raw(dash.port, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('do not serve');
    }
  });

  it('lists models from the configured server only, never from a URL the page sends', async () => {
    const res = JSON.parse(
      (await raw(dash.port, 'GET', '/api/models?base_url=http://169.254.169.254/v1')).body,
    );
    expect(res.models).toEqual(['llama-test', 'qwen-test']);
    expect(res.builtin).toEqual(['oracle']);
    expect(res.base_url).toBe(models.baseUrl);
  });

  it('never sends a secret to the page: credentials in recorded base URLs are stripped', async () => {
    const bodies = await Promise.all(
      ['/api/index', `/api/result?file=${qwenFile}`, `/api/trial?file=${qwenFile}&index=0`, '/'].map(
        async (p) => (await raw(dash.port, 'GET', p)).body,
      ),
    );
    for (const body of bodies) expect(body).not.toContain('secret');
    expect(bodies[1]).toContain('"base_url":"http://***@127.0.0.1:8080/v1"');
  });

  it('compares what each model built for a task', async () => {
    const res = JSON.parse((await raw(dash.port, 'GET', '/api/compare?task=landing_page_v1')).body);
    expect(res.models.map((m: { model: string }) => m.model)).toEqual([LLAMA, QWEN]);
    expect(res.models[0].trials[0].artifacts[0].path).toBe('site/index.html');
  });

  it('draws the radar as an SVG image for up to four models', async () => {
    const svg = await raw(
      dash.port,
      'GET',
      `/api/radar.svg?models=${encodeURIComponent(`${QWEN},${LLAMA}`)}`,
    );
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(svg.body).toMatch(/^<svg /);
    expect((await raw(dash.port, 'GET', '/api/radar?models=a,b,c,d,e')).status).toBe(400);
  });
});

describe('dashboard request guards', () => {
  it('refuses any request whose Host is not this server (DNS rebinding)', async () => {
    for (const path of ['/', '/api/index', `${artifactBase}/site/index.html`]) {
      const res = await raw(dash.port, 'GET', path, { host: `rebind.attacker.example:${dash.port}` });
      expect(res.status, path).toBe(403);
    }
  });

  it('refuses to start a run without the session token, from another origin, or as a form post', async () => {
    const body = JSON.stringify({ model: 'slow', task: 'debug_python_v1', k: 1 });
    const ok = pageHeaders(dash);
    const attempts: [string, Record<string, string>, number][] = [
      ['no token', { ...ok, 'x-agent-bench-token': '' }, 403],
      ['wrong token', { ...ok, 'x-agent-bench-token': 'x'.repeat(43) }, 403],
      ['other origin', { ...ok, origin: 'http://evil.example' }, 403],
      ['opaque origin (sandboxed artifact)', { ...ok, origin: 'null' }, 403],
      ['no origin', Object.fromEntries(Object.entries(ok).filter(([k]) => k !== 'origin')), 403],
      ['form post', { ...ok, 'content-type': 'text/plain' }, 415],
    ];
    for (const [what, headers, status] of attempts) {
      const res = await raw(dash.port, 'POST', '/api/run', headers, body);
      expect(res.status, what).toBe(status);
    }
    expect(JSON.parse((await raw(dash.port, 'GET', '/api/run')).body).run).toBeNull();
  });

  it('validates the run request', async () => {
    const bad = [
      { model: '--help', task: 'debug_python_v1', k: 1 },
      { model: 'm', task: 'no_such_task', k: 1 },
      { model: 'm', task: 'debug_python_v1', k: 0 },
      { model: 'm', task: 'debug_python_v1', k: 1.5 },
    ];
    for (const body of bad) {
      const res = await raw(dash.port, 'POST', '/api/run', pageHeaders(dash), JSON.stringify(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await raw(dash.port, 'POST', '/api/run/cancel', pageHeaders(dash), '{}')).status).toBe(409);
  });

  it('offers the registry tasks, skills apart', async () => {
    const res = JSON.parse((await raw(dash.port, 'GET', '/api/tasks')).body);
    expect(res.error).toBeNull();
    expect(res.tasks.map((t: { id: string; kind: string }) => `${t.id}:${t.kind}`)).toEqual([
      'debug_python_v1:task',
      'tdd_order_v1:task',
      'skill_run_v1_report:skill',
    ]);
  });
});
