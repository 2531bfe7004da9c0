/**
 * Hiding and deleting runs through the API: hidden runs leave the matrix (the previous run of the cell
 * takes their place) and the choice survives a restart; a deleted run moves to results/.trash/; and
 * hostile requests (another origin, no token, a path outside the results folder, a file the index does
 * not know) change nothing.
 */
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../src/dashboard/server.js';
import { copyFixtures, pageHeaders, raw, startTestDashboard } from './harness.js';

let dash: Dashboard;
let fixtures: ReturnType<typeof copyFixtures>;
const OLD = 'debug_python_v1__qwen3-8b-801dca__20250101T100000000Z-0001.json';
const NEW = 'debug_python_v1__qwen3-8b-801dca__20250102T100000000Z-0002.json';

beforeEach(async () => {
  fixtures = copyFixtures();
  dash = await startTestDashboard({ resultsDir: fixtures.dir });
});
afterEach(async () => {
  await dash.close();
  fixtures.remove();
});

const post = (path: string, body: unknown, headers = pageHeaders(dash)) =>
  raw(dash.port, 'POST', path, headers, JSON.stringify(body));

interface Row {
  file: string;
  newest: boolean;
  hidden: boolean;
}
const index = async (): Promise<Row[]> =>
  JSON.parse((await raw(dash.port, 'GET', '/api/index')).body).results;
const newestFiles = async () => (await index()).filter((r) => r.newest).map((r) => r.file);

describe('hide and delete runs', () => {
  it('a hidden run leaves the matrix until it is shown again, and stays hidden after a restart', async () => {
    expect(await newestFiles()).toContain(NEW);
    const res = await post('/api/hide', { file: NEW, hidden: true });
    expect(res.status).toBe(200);
    const rows = await index();
    expect(rows.find((r) => r.file === NEW)).toMatchObject({ hidden: true, newest: false });
    // The cell now shows the run before it.
    expect(rows.find((r) => r.file === OLD)).toMatchObject({ hidden: false, newest: true });
    expect(JSON.parse(readFileSync(join(fixtures.dir, '.dashboard.json'), 'utf8'))).toEqual({
      hidden: [NEW],
    });

    await dash.close();
    dash = await startTestDashboard({ resultsDir: fixtures.dir });
    expect(await newestFiles()).not.toContain(NEW);

    expect((await post('/api/hide', { file: NEW, hidden: false })).status).toBe(200);
    expect(await newestFiles()).toContain(NEW);
    expect(await newestFiles()).not.toContain(OLD);
  });

  it('a deleted run moves into results/.trash/ and out of the index', async () => {
    const res = await post('/api/delete', { file: NEW });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ file: NEW, trashed: `.trash/${NEW}` });
    expect(existsSync(join(fixtures.dir, NEW))).toBe(false);
    expect(readdirSync(join(fixtures.dir, '.trash'))).toEqual([NEW]);
    const rows = await index();
    expect(rows.map((r) => r.file)).not.toContain(NEW);
    expect(rows.find((r) => r.file === OLD)?.newest).toBe(true);
    expect((await raw(dash.port, 'GET', `/api/result?file=${NEW}`)).status).toBe(404);
    // Deleting it again: the index no longer knows it.
    expect((await post('/api/delete', { file: NEW })).status).toBe(404);
  });

  it('refuses to delete anything the index does not know, whatever path the request names', async () => {
    const outside = join(fixtures.dir, '..', 'precious.json');
    writeFileSync(outside, '{"keep": true}');
    writeFileSync(join(fixtures.dir, 'notes.json'), '{"not": "a result"}');
    const before = readdirSync(fixtures.dir).sort();
    for (const file of [
      '../precious.json',
      outside,
      `./${NEW}`,
      `artifacts/../${NEW}`,
      'notes.json',
      '.dashboard.json',
      'events.jsonl',
      `${NEW}\0`,
      '',
    ]) {
      const res = await post('/api/delete', { file });
      expect(res.status, file).toBe(404);
    }
    expect((await post('/api/delete', { file: ['x'] })).status).toBe(400);
    expect((await post('/api/delete', {})).status).toBe(400);
    expect((await post('/api/hide', { file: NEW, hidden: 'no' })).status).toBe(400);
    expect(readFileSync(outside, 'utf8')).toBe('{"keep": true}');
    expect(readdirSync(fixtures.dir).sort()).toEqual(before);
  });

  it('a link in the results folder is never followed to move or trash what it points to', async () => {
    // A trash folder planted as a link to outside the results folder.
    const outside = join(fixtures.dir, '..');
    symlinkSync(outside, join(fixtures.dir, '.trash'));
    const res = await post('/api/delete', { file: NEW });
    expect(res.status).toBe(409);
    expect(JSON.parse(res.body).error).toMatch(/not a plain folder/);
    expect(existsSync(join(fixtures.dir, NEW))).toBe(true);
    expect(existsSync(join(outside, NEW))).toBe(false);
  });

  it('refuses hide and delete without the page token or from another origin', async () => {
    const noToken = { ...pageHeaders(dash), 'x-agent-bench-token': 'guess' };
    const otherOrigin = { ...pageHeaders(dash), origin: 'http://evil.example' };
    const { origin: _o, ...noOrigin } = pageHeaders(dash);
    for (const headers of [noToken, otherOrigin, noOrigin]) {
      expect((await post('/api/delete', { file: NEW }, headers)).status).toBe(403);
      expect((await post('/api/hide', { file: NEW }, headers)).status).toBe(403);
    }
    // A cross-site form cannot send JSON.
    const form = { ...pageHeaders(dash), 'content-type': 'text/plain' };
    expect((await post('/api/delete', { file: NEW }, form)).status).toBe(415);
    // A GET is never state-changing.
    expect((await raw(dash.port, 'GET', `/api/delete?file=${NEW}`)).status).toBe(404);
    expect(existsSync(join(fixtures.dir, NEW))).toBe(true);
    expect(existsSync(join(fixtures.dir, '.dashboard.json'))).toBe(false);
  });
});
