/**
 * BuildKit Dockerfiles made buildable by the classic builder (src/catalogue/harbor/
 * classic-dockerfile.ts): heredocs become files of the build context with BuildKit's meaning kept
 * (the generated scripts are run here by a real shell to prove it), `# syntax=` and cache mounts
 * are dropped, and what cannot be translated is refused by name and line.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forClassicBuilder } from '../../../src/catalogue/harbor/classic-dockerfile.js';
import { dockerfileFacts } from '../../../src/catalogue/harbor/dockerfile.js';
import type { ClassicDockerfile } from '../../../src/sandbox/types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function ok(text: string): Extract<ClassicDockerfile, { ok: true }> {
  const r = forClassicBuilder(text);
  if (!r.ok) throw new Error(r.problem);
  return r;
}

function file(r: Extract<ClassicDockerfile, { ok: true }>, path: string) {
  const f = r.files.find((x) => x.path === path);
  if (f === undefined) throw new Error(`no ${path} among ${r.files.map((x) => x.path).join(', ')}`);
  return f;
}

/** A generated RUN script sourced by sh in a scratch folder, as the rewritten RUN does. */
function runScript(content: string, env: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'heredoc-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'script'), content);
  execFileSync('sh', ['-c', '. ./script'], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env } });
  return dir;
}

describe('a Dockerfile with heredocs, for the classic builder', () => {
  it('RUN <<EOF alone: its body is a script the stage’s shell sources, never instructions', () => {
    const r = ok('FROM img\nWORKDIR /app\nRUN <<EOF\nset -e\necho hi > out.txt\nEOF\nCMD ["x"]\n');
    expect(r.text).toBe(
      'FROM img\nWORKDIR /app\nCOPY .agent-bench-heredoc/run-3 /.agent-bench-heredoc/run-3\nRUN trap \'rm -f /.agent-bench-heredoc/run-3 2>/dev/null\' EXIT; . /.agent-bench-heredoc/run-3\nCMD ["x"]\n',
    );
    expect(file(r, '.agent-bench-heredoc/run-3')).toEqual({
      path: '.agent-bench-heredoc/run-3',
      content: 'set -e\necho hi > out.txt\n',
      mode: 0o644,
    });
    expect(r.notes).toEqual(['heredocs rewritten for the classic builder']);
    // The facts never read a body line as an instruction.
    expect(dockerfileFacts('FROM img\nRUN <<EOF\nWORKDIR /nope\nEOF\n')?.workdir).toBe('/');
  });

  it('a shebang makes the body an executable run as itself', () => {
    const r = ok('FROM img\nRUN <<EOF\n#!/usr/bin/env python3\nprint(1)\nEOF\n');
    expect(file(r, '.agent-bench-heredoc/run-2').mode).toBe(0o755);
    expect(r.text).toContain(
      "RUN trap 'rm -f /.agent-bench-heredoc/run-2 2>/dev/null' EXIT; /.agent-bench-heredoc/run-2\n",
    );
  });

  it('<<- strips leading tabs from the body and from the delimiter line', () => {
    const r = ok('FROM img\nRUN <<-EOT\n\techo a\n\t\techo b\n\tEOT\nRUN true\n');
    expect(file(r, '.agent-bench-heredoc/run-2').content).toBe('echo a\necho b\n');
    expect(r.text).toContain('\nRUN true\n');
    const c = ok('FROM img\nCOPY <<-EOT /etc/x.conf\n\tkey = 1\n\tEOT\n');
    expect(file(c, '.agent-bench-heredoc/copy-2-0/EOT').content).toBe('key = 1\n');
  });

  it('several heredocs with a command go to the shell as BuildKit gives them, and the shell makes the files', () => {
    const r = ok(
      'FROM img\nRUN <<FILE1 cat > file1 && <<-"FILE2" cat > file2\nI am $WHO\nFILE1\n\tsecond $WHO\n\tFILE2\n',
    );
    const script = file(r, '.agent-bench-heredoc/run-2').content;
    expect(script).toBe(
      '<<FILE1 cat > file1 && <<-"FILE2" cat > file2\nI am $WHO\nFILE1\n\tsecond $WHO\nFILE2\n',
    );
    const dir = runScript(script, { WHO: 'first' });
    // Unquoted: the shell expands; quoted with <<-: literal, tabs stripped.
    expect(readFileSync(join(dir, 'file1'), 'utf8')).toBe('I am first\n');
    expect(readFileSync(join(dir, 'file2'), 'utf8')).toBe('second $WHO\n');
  });

  it('RUN python3 <<EOF: the command reads the body on its stdin', () => {
    const r = ok("FROM img\nRUN cat > greeting.txt <<'EOF'\nhello $USER\nEOF\n");
    const dir = runScript(file(r, '.agent-bench-heredoc/run-2').content, { USER: 'x' });
    expect(readFileSync(join(dir, 'greeting.txt'), 'utf8')).toBe('hello $USER\n');
  });

  it('COPY <<EOF: a context file named by its delimiter, expanded with the Dockerfile’s ARGs and ENVs unless quoted', () => {
    const r = ok(
      [
        'ARG GREETING=hello',
        'FROM img AS base',
        'ARG GREETING',
        'ARG EMPTY',
        'ENV NAME=world WHO="${GREETING} you"',
        'COPY --chown=1000:1000 <<EOF <<"RAW" /app/',
        '${GREETING}, $NAME! ${EMPTY:-fallback} $1 \\$NAME "quoted"',
        'EOF',
        'echo "$NAME"',
        'RAW',
        'FROM base',
        'COPY <<EOF /who',
        '$WHO',
        'EOF',
        '',
      ].join('\n'),
    );
    expect(r.text).toContain(
      'COPY --chown=1000:1000 .agent-bench-heredoc/copy-6-0/EOF .agent-bench-heredoc/copy-6-1/RAW /app/\n',
    );
    expect(file(r, '.agent-bench-heredoc/copy-6-0/EOF')).toMatchObject({
      content: 'hello, world! fallback  \\$NAME "quoted"\n',
      mode: 0o644,
    });
    expect(file(r, '.agent-bench-heredoc/copy-6-1/RAW').content).toBe('echo "$NAME"\n');
    // A stage FROM another keeps its ENVs.
    expect(file(r, '.agent-bench-heredoc/copy-12-0/EOF').content).toBe('hello you\n');
  });

  it('COPY --chmod with a heredoc sets the file’s mode', () => {
    const r = ok('FROM img\nCOPY --chmod=755 <<EOF /usr/local/bin/tool\n#!/bin/sh\nEOF\n');
    expect(file(r, '.agent-bench-heredoc/copy-2-0/EOF').mode).toBe(0o755);
    expect(r.text).toContain('\nCOPY .agent-bench-heredoc/copy-2-0/EOF /usr/local/bin/tool\n');
  });

  it('drops # syntax= and cache mounts, and says so', () => {
    const r = ok(
      '# syntax=docker/dockerfile:1.4\nFROM img\nRUN --mount=type=cache,target=/root/.cache pip install x\n',
    );
    expect(r.text).toBe('FROM img\nRUN pip install x\n');
    expect(r.notes).toEqual(['dropped # syntax=docker/dockerfile:1.4', 'dropped RUN --mount=type=cache']);
  });

  it('leaves a Dockerfile without BuildKit syntax as it is', () => {
    const text = 'FROM img\nRUN echo a \\\n  && echo b\nCOPY --from=build /x /y\n';
    expect(ok(text)).toEqual({ ok: true, text, files: [], notes: [] });
  });

  it('refuses what it does not translate, naming the syntax and its line', () => {
    const refused = (text: string): string => {
      const r = forClassicBuilder(text);
      return r.ok ? 'built' : r.problem;
    };
    expect(refused('FROM img\n\nRUN --mount=type=secret,id=tok cat /run/secrets/tok\n')).toBe(
      "environment/Dockerfile line 3: RUN --mount=type=secret; agent-bench builds with the engine's classic builder, which lacks it",
    );
    expect(refused('FROM img\nRUN --mount=type=ssh git clone x\n')).toMatch(
      /^environment\/Dockerfile line 2: RUN --mount=type=ssh;/,
    );
    expect(refused('FROM img\nRUN --network=none true\n')).toMatch(/line 2: RUN --network;/);
    expect(refused('FROM img\nCOPY --chmod=755 run.sh /x\n')).toMatch(/line 2: COPY --chmod;/);
    expect(refused('FROM img\nCOPY <<EOF /x\n$PATH\nEOF\n')).toBe(
      "environment/Dockerfile line 2: COPY <<EOF expands $PATH, which the Dockerfile does not set (BuildKit would take it from the base image's environment); agent-bench builds with the engine's classic builder, which lacks it",
    );
    expect(refused('FROM img\nRUN <<EOF\necho never ends\n')).toBe(
      "environment/Dockerfile line 2: RUN's heredoc <<EOF is never ended by a line EOF",
    );
  });
});
