/**
 * The staged copy of a skill and its stubs, run locally: the copy holds what the agent may see
 * (no manifest, no .bench/), and each stub, whatever its language, creates its outputs (fixed under
 * the workspace, or at its --out argument) and answers with its canned stdout and exit code. It
 * writes no record of its own (the process trace is the record), and the shell recorder stays the
 * script's process (it runs Python as a child, not by exec), so the trace shows the script ran.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSkill } from '../../src/skills/load.js';
import { stageSkill } from '../../src/skills/stage.js';
import { removeSkillFolders, skillFolder } from './skill-folder.js';

const temps: string[] = [];
afterEach(() => {
  removeSkillFolders();
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-bench-stub-test-'));
  temps.push(dir);
  return dir;
}

function stagedWorkspace() {
  const dir = skillFolder(
    {
      'SKILL.md': '# s\n',
      'scripts/render.sh': '#!/bin/sh\necho really rendering\n',
      'scripts/gen.py': 'print("real")\n',
      'scripts/upload.mjs': 'console.log("real")\n',
      'data/in.csv': 'a,b\n',
      '.bench/pic.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    },
    {
      stubs: {
        'scripts/render.sh': { outputs: ['output/report.pdf'], stdout: 'rendered\n' },
        'scripts/gen.py': { outputs: [{ arg: '--out', from: '.bench/pic.png' }], exit_code: 3 },
        'scripts/upload.mjs': { stdout: 'uploaded\n' },
      },
    },
    { executable: ['scripts/render.sh'] },
  );
  const skill = loadSkill(dir);
  const staged = stageSkill(skill.folder, skill.digest, skill.spec.stubs, temp());
  const ws = temp();
  cpSync(staged, join(ws, 'skill'), { recursive: true });
  return {
    staged,
    ws,
    again: () => stageSkill(skill.folder, skill.digest, skill.spec.stubs, join(staged, '..')),
  };
}

const run = (ws: string, argv: string[], cwd = ws) =>
  spawnSync(argv[0] as string, argv.slice(1), { cwd, encoding: 'utf8' });

describe('the staged skill', () => {
  it('holds what the agent may see, readable by anyone, and is built once', () => {
    const { staged, again } = stagedWorkspace();
    expect(existsSync(join(staged, 'bench_manifest.json'))).toBe(false);
    expect(existsSync(join(staged, '.bench'))).toBe(false);
    expect(readFileSync(join(staged, 'data/in.csv'), 'utf8')).toBe('a,b\n');
    expect(statSync(staged).mode & 0o777).toBe(0o755);
    expect(statSync(join(staged, 'scripts/render.sh')).mode & 0o777).toBe(0o755);
    expect(statSync(join(staged, 'scripts/gen.py')).mode & 0o777).toBe(0o644);
    expect(readFileSync(join(staged, 'scripts/render.sh'), 'utf8')).toMatch(
      /agent-bench stub of scripts\/render\.sh/,
    );
    expect(again()).toBe(staged);
  });
});

describe('stubs', () => {
  it('create their outputs and answer as canned, in sh, Python and Node, and write no record', () => {
    const { ws } = stagedWorkspace();
    const sh = run(ws, ['sh', 'skill/scripts/render.sh', '--title', 'Week 48']);
    expect({ out: sh.stdout, code: sh.status }).toEqual({ out: 'rendered\n', code: 0 });
    expect(readFileSync(join(ws, 'output/report.pdf'), 'utf8')).toBe('stub output of scripts/render.sh\n');

    const direct = run(ws, ['./scripts/render.sh', '--title=x'], join(ws, 'skill'));
    expect(direct.status).toBe(0);

    const py = run(ws, ['python3', 'skill/scripts/gen.py', '--prompt', 'a cat', '--out', 'art/cat.png']);
    expect(py.status).toBe(3);
    expect(readFileSync(join(ws, 'art/cat.png'))).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const missing = run(ws, ['python3', 'skill/scripts/gen.py', '--prompt', 'x']);
    expect({ code: missing.status, err: missing.stderr }).toEqual({
      code: 2,
      err: 'scripts/gen.py: missing --out\n',
    });

    const node = run(ws, ['node', join(ws, 'skill/scripts/upload.mjs'), join(ws, 'output/report.pdf')]);
    expect({ out: node.stdout, code: node.status }).toEqual({ out: 'uploaded\n', code: 0 });

    const eq = run(ws, ['python3', 'skill/scripts/gen.py', '--out=art/eq.png'], ws);
    expect(eq.status).toBe(3);
    expect(existsSync(join(ws, 'art/eq.png'))).toBe(true);
    expect(existsSync(join(ws, '.stub_calls.log'))).toBe(false);
  });

  it('with a usage, accept only the argv the real script accepts, else print it and exit 2 as it would', () => {
    const dir = skillFolder(
      { 'SKILL.md': '# s\n', 'scripts/shot.sh': '#!/bin/sh\necho real\n' },
      {
        stubs: {
          'scripts/shot.sh': {
            outputs: [{ arg: '--out', content: 'png' }],
            stdout: 'saved\n',
            usage: ['PAGE', '--out', 'OUT', '...'],
          },
        },
      },
    );
    const skill = loadSkill(dir);
    const staged = stageSkill(skill.folder, skill.digest, skill.spec.stubs, temp());
    const ws = temp();
    cpSync(staged, join(ws, 'skill'), { recursive: true });
    const ok = run(ws, ['sh', 'skill/scripts/shot.sh', 'index.html', '--out', 'out/p.png', '--quiet']);
    expect({ out: ok.stdout, code: ok.status }).toEqual({ out: 'saved\n', code: 0 });
    for (const argv of [
      ['--out', 'out/q.png', 'index.html'],
      ['index.html', '--out=out/q.png'],
      ['index.html', '--out'],
      ['index.html'],
    ]) {
      const bad = run(ws, ['sh', 'skill/scripts/shot.sh', ...argv]);
      expect({ code: bad.status, err: bad.stderr }, argv.join(' ')).toEqual({
        code: 2,
        err: 'usage: scripts/shot.sh PAGE --out OUT ...\n',
      });
    }
    expect(existsSync(join(ws, 'out/q.png'))).toBe(false);
  });

  it('keep the shell recorder as the process that ran the script: Python is its child', () => {
    const { staged } = stagedWorkspace();
    const source = readFileSync(join(staged, 'scripts/render.sh'), 'utf8');
    expect(source).not.toMatch(/^\s*exec\b/m);
    expect(source).toMatch(/^python3 -I - "\$0" "\$@" <<'AGENT_BENCH_STUB'$/m);
  });
});
