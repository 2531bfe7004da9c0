/**
 * The checker (uid 1001) runs the agent's code on a staged copy it cannot change, never reaching
 * the live workspace; its HOME is out of the agent's reach and wiped at reset. Proven by trying.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '../../src/sandbox/index.js';
import { CHECKER_HOME, CHECKS_DIR } from '../../src/sandbox/types.js';
import { asChecker, asRoot, IMAGE_TIMEOUT_MS, openSandbox } from './fixture.js';

let sb: DockerSandbox;

beforeAll(async () => {
  sb = await openSandbox();
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await sb?.dispose();
});

describe.sequential('the checker user', () => {
  it('runs as uid 1001 through the exec wrapper, with its own HOME and TMPDIR', async () => {
    const r = await asChecker(
      sb,
      'id -u; id -g; echo "$HOME $TMPDIR"; touch "$HOME/x" "$TMPDIR/y" && echo writable',
    );
    expect(r.stdout).toBe(`1001\n1001\n${CHECKER_HOME} ${CHECKER_HOME}\nwritable\n`);
    const timed = await sb.exec(['sleep', '10'], { user: 'checker', cwd: '/', timeoutMs: 300 });
    expect(timed.timedOut).toBe(true);
  });

  it('reads harness files put under CHECKS_DIR, and gets its own files put in its home', async () => {
    await sb.putFiles([{ path: `${CHECKS_DIR}/hidden/test_h.py`, content: 'H = 1\n' }], { owner: 'root' });
    await sb.putFiles([{ path: `${CHECKER_HOME}/conf.txt`, content: 'c\n' }], { owner: 'checker' });
    const r = await asChecker(
      sb,
      `cat ${CHECKS_DIR}/hidden/test_h.py ${CHECKER_HOME}/conf.txt; stat -c %U ${CHECKER_HOME}/conf.txt`,
    );
    expect(r.stdout).toBe('H = 1\nc\nchecker\n');
    expect((await sb.runCommand(`cat ${CHECKS_DIR}/hidden/test_h.py`, 10_000)).stderr).toMatch(
      /Permission denied/,
    );
  });

  it("the agent cannot reach the checker's home or the staged copies", async () => {
    const r = await sb.runCommand(
      `ls ${CHECKER_HOME}; ls ${CHECKS_DIR}; echo evil > ${CHECKER_HOME}/.bashrc`,
      10_000,
    );
    expect(r.stderr.match(/Permission denied/g)).toHaveLength(3);
  });
});

describe.sequential('stageForChecks', () => {
  let staged: string;

  beforeAll(async () => {
    await sb.runCommand(
      [
        'mkdir -p pkg/locked && echo "print(42)" > pkg/main.py && echo secret > pkg/locked/hidden.txt',
        'printf "#!/bin/sh\\necho ran\\n" > run.sh && chmod 700 run.sh',
        'echo open > shared.txt && chmod 666 shared.txt',
        'ln -s pkg/main.py link.py && ln -s /harness escape && ln -s ../../etc/passwd up',
        'chmod 000 pkg/main.py pkg/locked/hidden.txt pkg/locked && chmod 777 pkg && chmod 755 /workspace',
      ].join(' && '),
      10_000,
    );
    staged = await sb.stageForChecks();
  });

  it('copies the content, files the agent made unreadable included, with fixed root-owned modes', async () => {
    expect(staged.startsWith(`${CHECKS_DIR}/`)).toBe(true);
    const r = await asChecker(sb, 'cat pkg/main.py pkg/locked/hidden.txt; ./run.sh; python3 link.py', staged);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'print(42)\nsecret\nran\n42\n' });
    const modes = await asRoot(
      sb,
      `cd ${staged} && stat -c '%a %U %n' . pkg pkg/locked pkg/main.py run.sh shared.txt`,
    );
    expect(modes.stdout).toBe(
      '755 root .\n755 root pkg\n755 root pkg/locked\n644 root pkg/main.py\n755 root run.sh\n644 root shared.txt\n',
    );
  });

  it('keeps symlinks as links, never following them out of the tree', async () => {
    const r = await asRoot(
      sb,
      `cd ${staged} && for l in link.py escape up; do echo "$l $(stat -c %F $l) $(readlink $l)"; done`,
    );
    expect(r.stdout).toBe(
      'link.py symbolic link pkg/main.py\nescape symbolic link /harness\nup symbolic link ../../etc/passwd\n',
    );
  });

  it('the checker can change neither the copy nor the live workspace', async () => {
    const r = await asChecker(
      sb,
      [
        'echo x >> pkg/main.py',
        'rm -f shared.txt',
        'touch new.txt',
        'mv pkg pkg2',
        `echo x >> /workspace/shared.txt`,
        'ls /workspace',
        'ls escape/',
      ]
        .map((c) => `${c} 2>/dev/null && echo "did: ${c}"`)
        .join('; ')
        .concat('; true'),
      staged,
    );
    expect(r.stdout).toBe('');
    const live = await asRoot(sb, 'cat /workspace/shared.txt; stat -c %a /workspace');
    // Staging closed the workspace again after the agent opened it (chmod 755 above).
    expect(live.stdout).toBe('open\n750\n');
  });

  it('gives every call a fresh copy, and reset wipes copies and the checker home', async () => {
    await sb.runCommand('chmod 644 pkg/main.py && echo "print(43)" > pkg/main.py', 10_000);
    const second = await sb.stageForChecks();
    expect(second).not.toBe(staged);
    expect((await asChecker(sb, 'python3 pkg/main.py', second)).stdout).toBe('43\n');
    expect((await asChecker(sb, 'python3 pkg/main.py', staged)).stdout).toBe('42\n');
    await sb.reset();
    const after = await asRoot(
      sb,
      `ls -A ${CHECKS_DIR} ${CHECKER_HOME}; stat -c '%a %U %G' ${CHECKS_DIR} ${CHECKER_HOME}`,
    );
    expect(after.stdout).toBe(`${CHECKS_DIR}:\n\n${CHECKER_HOME}:\n750 root checker\n700 checker checker\n`);
  });
});
