/**
 * The offline stand-ins of a Harbor verifier (sandbox/verifier-bin/) and the offline pip's install
 * (sandbox/offline/pip.py), run by the host's python3 and sh: what each invocation of the
 * Terminal-Bench 2 verifier pattern becomes, and what they say.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const UV = join(ROOT, 'sandbox/verifier-bin/uv');
const CURL = join(ROOT, 'sandbox/verifier-bin/curl');
const PIP = join(ROOT, 'sandbox/offline/pip.py');
const scratch = mkdtempSync(join(tmpdir(), 'standins-'));
/** The host's python itself (not a launcher that needs the PATH the tests replace). */
const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)']).toString().trim();

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A directory of executables named `names`, to stand for an image's PATH. */
function binDir(name: string, names: string[]): string {
  const dir = join(scratch, name);
  execFileSync('mkdir', ['-p', dir]);
  for (const n of names) {
    writeFileSync(join(dir, n), '#!/bin/sh\n');
    chmodSync(join(dir, n), 0o755);
  }
  return dir;
}

/** The stand-in's plan for `prog args` with `path` as PATH. */
function plan(prog: 'uv' | 'uvx', args: string[], path: string): unknown[] {
  const code = `import importlib.machinery, json, sys
m = importlib.machinery.SourceFileLoader("uv_standin", sys.argv[1]).load_module()
print(json.dumps(m.plan(sys.argv[2], sys.argv[3:])))`;
  const out = execFileSync(PYTHON, ['-c', code, UV, prog, ...args], { env: { PATH: path } });
  return JSON.parse(out.toString('utf8')) as unknown[];
}

describe('the uv and uvx stand-ins', () => {
  const withPytest = binDir('image-a', ['pytest', 'python3']);
  const pythonOnly = binDir('image-b', ['python3']);

  it("runs the image's pytest for uvx with --with, -w, -p and version pins, and says so", () => {
    const [kind, argv, note] = plan(
      'uvx',
      ['--with', 'pytest==8.3.3', 'pytest', 'tests/test_x.py'],
      withPytest,
    );
    expect([kind, argv]).toEqual(['exec', [join(withPytest, 'pytest'), 'tests/test_x.py']]);
    expect(note).toBe(
      `agent-bench: offline uvx stand-in (no network): running the image's pytest (${join(withPytest, 'pytest')}) for \`uvx --with pytest==8.3.3 pytest tests/test_x.py\`; not installed, the image's own used: pytest==8.3.3`,
    );
    expect(
      plan('uvx', ['-p', '3.13', '-wpytest==8.4.1', '--python=3.12', 'pytest@8.4.1', '-rA'], withPytest)[1],
    ).toEqual([join(withPytest, 'pytest'), '-rA']);
  });

  it('falls back to python -m pytest, and drops --ctrf when pytest-json-ctrf was asked for', () => {
    const args = [
      '-w',
      'pytest==8.4.1',
      '-w',
      'pytest-json-ctrf==0.3.5',
      'pytest',
      '--ctrf',
      '/logs/verifier/ctrf.json',
      '/tests/t.py',
      '-rA',
    ];
    const [kind, argv, note] = plan('uvx', args, pythonOnly);
    expect(kind).toBe('exec');
    expect(argv).toEqual([join(pythonOnly, 'python3'), '-m', 'pytest', '/tests/t.py', '-rA']);
    expect(note).toMatch(/--ctrf dropped$/);
    // Not asked for: --ctrf is the test's own business.
    expect(plan('uvx', ['pytest', '--ctrf', 'x.json'], pythonOnly)[1]).toEqual([
      join(pythonOnly, 'python3'),
      '-m',
      'pytest',
      '--ctrf',
      'x.json',
    ]);
  });

  it('serves uv run, uv tool run, uv pip install and uv venv; refuses what needs the network', () => {
    expect(plan('uv', ['run', '--with', 'pytest', 'pytest', '-q'], withPytest)[1]).toEqual([
      join(withPytest, 'pytest'),
      '-q',
    ]);
    expect(plan('uv', ['-q', 'tool', 'run', 'pytest'], withPytest)[1]).toEqual([join(withPytest, 'pytest')]);
    expect(plan('uv', ['pip', 'install', 'pytest==8.4.1'], withPytest)[1]).toEqual([
      join(withPytest, 'python3'),
      '-I',
      '/opt/agent-bench/offline/pip.py',
      'install',
      'pytest==8.4.1',
    ]);
    expect(plan('uv', ['venv', '.tbench-testing'], withPytest).slice(0, 2)).toEqual([
      'venv',
      '.tbench-testing',
    ]);
    expect(plan('uv', ['add', 'requests'], withPytest)).toEqual([
      'say',
      "uv: no network in this sandbox: agent-bench's offline stand-in does not do `uv add requests`",
      2,
    ]);
    expect(plan('uvx', ['ruff', 'check'], withPytest)).toEqual([
      'say',
      'uvx: no network in this sandbox: cannot install ruff, and the image has none (uvx ruff check)',
      2,
    ]);
    expect(plan('uvx', ['--with', 'pytest'], withPytest)[0]).toBe('say');
  });
});

describe('the curl and wget stand-ins', () => {
  it('fail at once, naming the URL and the missing network', () => {
    const curl = spawnSync('sh', [CURL, '-LsSf', 'https://astral.sh/uv/0.7.13/install.sh']);
    expect(curl.status).toBe(6);
    expect(curl.stderr.toString()).toBe(
      "curl: no network in this sandbox: https://astral.sh/uv/0.7.13/install.sh not fetched (agent-bench's offline stand-in for curl)\n",
    );
    const wget = join(scratch, 'wget');
    symlinkSync(CURL, wget);
    const w = spawnSync('sh', [wget, '-qO-', 'http://example.com/x']);
    expect(w.status).toBe(4);
    expect(w.stderr.toString()).toMatch(
      /^wget: no network in this sandbox: http:\/\/example.com\/x not fetched/,
    );
  });
});

describe('the offline pip install', () => {
  // The host's python has pip installed, and no package of this name.
  const pip = (...args: string[]) => spawnSync('python3', [PIP, 'install', ...args], { cwd: scratch });

  it('succeeds with a note when every requirement is already installed', () => {
    const r = pip('-q', '--no-cache-dir', 'pip', 'pip>=1');
    expect(r.status, r.stderr.toString()).toBe(0);
    expect(r.stdout.toString()).toMatch(/^pip: already installed, nothing to do .*: pip, pip>=1\n$/);
    writeFileSync(join(scratch, 'req.txt'), '# tools\npip  # the installer\n');
    expect(pip('-r', 'req.txt').status).toBe(0);
  });

  it('fails naming what is not installed, and what only a download or build could give', () => {
    const r = pip('pip', 'pip==0.0.1', 'agent-bench-no-such-package');
    expect(r.status).toBe(1);
    expect(r.stderr.toString()).toMatch(/not installed here: pip==0\.0\.1, agent-bench-no-such-package/);
    expect(pip('./dist/x-1.0-py3-none-any.whl').status).toBe(1);
    expect(pip('-e', '.').stderr.toString()).toMatch(/an editable install needs a build/);
    expect(pip('-r', 'missing.txt').stderr.toString()).toMatch(/cannot read requirements file missing.txt/);
  });
});
