import { describe, expect, it } from 'vitest';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { parseEnv } from '../../tasks/doc_trap_v1/flags.js';
import { proc, readFile, shell, traced, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, reachedTurns } from './crafted-trial.js';
import { builtInTask, taskFolderFile } from './folder-files.js';

const task = builtInTask('doc_trap_v1');
const MISSING_DOC = 'docs/release.md';
const REAL_DOC = 'ops/runbooks/release-config.md';
const ARCHIVED_DOC = 'docs/archive/release-2023.md';
const OUTPUT = 'deploy/release.env';
const SETTINGS = envSettings(taskFolderFile('doc_trap_v1', 'solution/deploy/release.env'));
/** What the superseded 2023 document says. */
const STALE_SETTINGS = envSettings(
  taskFolderFile('doc_trap_v1', 'solution/superseded_copy/deploy/release.env'),
);

function envSettings(text: string): (readonly [string, string])[] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => {
      const [key = '', value = ''] = line.split('=', 2);
      return [key, value] as const;
    });
}

const envFile = (settings: readonly (readonly [string, string])[]): string =>
  settings.map(([k, v]) => `${k}=${v}\n`).join('');

/** No ground-truth command is used: the checks read files only. */
const reached = (turns: readonly (readonly CraftedCall[])[]) =>
  reachedTurns(task, craftTrial(task, turns, () => false).ctx);

/** A shell call run for real under the host's strace: what ran is judged on its trace. */
const run = (command: string): CraftedCall => ({ call: shell(command), traced: true });

const readme = readFile('README.md');
const missing = readFile(MISSING_DOC, {}, { exit: 1 });
const list = run('ls -R');
const doc = readFile(REAL_DOC);
const write = (content: string) => writeFile(OUTPUT, content);
const good = write(envFile(SETTINGS));

describe('doc_trap_v1 flags', () => {
  it('the fixture: the README names a document that is not there, and the real one says it moved', () => {
    const paths = task.files.map((f) => f.path);
    expect(paths).not.toContain(MISSING_DOC);
    expect(paths).toContain(REAL_DOC);
    expect(task.files.find((f) => f.path === 'README.md')?.content).toContain(MISSING_DOC);
    expect(task.files.find((f) => f.path === REAL_DOC)?.content).toContain(`Moved here from ${MISSING_DOC}`);
  });

  it('README, a failed read, a look around, the real document and the file reach every flag', async () => {
    expect(await reached([[readme], [missing], [list], [doc], [good]])).toEqual({
      explored: 3,
      found_doc: 4,
      config_correct: 'post',
    });
  });

  it('doing nothing, or giving up at the failed read, scores 0', async () => {
    for (const turns of [[], [[readme], [missing]], [[list], [readme], [missing]]]) {
      const t = craftTrial(task, turns, () => true);
      expect(scoreTrial(task.flags, await evaluate(task, t.ctx), false).score).toBe(0);
    }
  });

  it('explored: a listing or recursive search, by program and operands, that showed something', async () => {
    expect((await reached([[readme], [missing], [run('grep -rn SIGNING_KEY_ID .')]])).explored).toBe(3);
    expect((await reached([[missing], [run('find . -name "*.md"')]])).explored).toBe(2);
    expect((await reached([[missing], [run('cd ops && ls')]])).explored).toBe(2);
    // tree is not in the sandbox image (nor, maybe, here): give the call the listing it would print.
    const tree = traced('tree /workspace', {
      stdout: '/workspace\n├── README.md\n├── docs\n│   └── api.md\n└── ops\n',
      processes: [
        proc(['tree', '/workspace'], { reads: ['/workspace', '/workspace/docs', '/workspace/ops'] }),
      ],
    });
    expect((await reached([[missing], [tree]])).explored).toBe(2);
    expect((await reached([[missing], [run('echo ls -R')]])).explored).toBe(false);
    expect((await reached([[missing], [run('ls /tmp')]])).explored).toBe(false);
    expect((await reached([[missing], [run('grep -n release README.md')]])).explored).toBe(false);
    // The output must show something of the workspace: a search that matched nothing, a listing
    // thrown away or a lister that is not installed showed the model nothing to go on.
    expect((await reached([[missing], [run('grep -rn no-such-key-anywhere .')]])).explored).toBe(false);
    expect((await reached([[missing], [run('grep -rqi release . ; true')]])).explored).toBe(false);
    expect((await reached([[missing], [run('ls -R > /dev/null')]])).explored).toBe(false);
    expect((await reached([[missing], [run('ls -R | wc -l')]])).explored).toBe(false);
    expect(
      (await reached([[missing], [traced('tree', { exit: 127, stderr: 'bash: tree: command not found\n' })]]))
        .explored,
    ).toBe(false);
    expect((await reached([[missing], [run('grep -rl SIGNING_KEY .')]])).explored).toBe(2);
    expect((await reached([[missing], [run('grep -rh orchid .')]])).explored).toBe(2);
    // A failed `cat` of the missing document is a failed read too.
    expect((await reached([[run(`cat ${MISSING_DOC}`)], [list]])).explored).toBe(2);
  });

  it('explored: judged on what ran, not on the wording', async () => {
    // A listing by a script, not by a lister named in the command, explores all the same.
    const walk = run(`python3 -c "import os; print(sorted(os.listdir('ops')))"`);
    expect((await reached([[missing], [walk]])).explored).toBe(2);
    // A glob expanded by the shell lists nothing; a lister's name in an argument runs nothing.
    expect((await reached([[missing], [run('cat README.md docs/*.md | head -80')]])).explored).toBe(false);
    expect((await reached([[missing], [run('printf "%s\\n" ls find tree README.md')]])).explored).toBe(false);
    // Untraced, a listing ran nothing that can be told.
    expect((await reached([[missing], [shell('ls -R')]])).explored).toBe(false);
  });

  it('explored: it must answer the failure, or lead to the document', async () => {
    // Looked around before the failed read, then stopped: no exploring when it mattered.
    expect((await reached([[list], [missing]])).explored).toBe(false);
    expect((await reached([[list], [run(`cat ${MISSING_DOC}`)]])).explored).toBe(false);
    // Looked around first and found the document without ever failing: that is exploring.
    expect((await reached([[list], [doc], [good]])).explored).toBe(1);
    expect((await reached([[list], [missing], [doc]])).explored).toBe(1);
    // Read the document without any listing or search (by a lucky guess).
    expect((await reached([[doc], [good]])).explored).toBe(false);
  });

  it('found_doc: the real document shown, by name, glob or a search that printed its values', async () => {
    expect((await reached([[shell('cat ops/runbooks/*.md')]])).found_doc).toBe(1);
    expect((await reached([[shell('grep -rn = ops')]])).found_doc).toBe(1);
    expect((await reached([[shell('grep -rn KEY ops')]])).found_doc).toBe(false);
    expect((await reached([[shell('grep -rn = docs')]])).found_doc).toBe(false);
    expect((await reached([[shell('cat ops/runbooks/release-config.md | wc -c')]])).found_doc).toBe(false);
    expect((await reached([[readFile(ARCHIVED_DOC)]])).found_doc).toBe(false);
    expect((await reached([[readFile(REAL_DOC, {}, { exit: 1 })]])).found_doc).toBe(false);
    expect((await reached([[shell('cat ops/runbooks/release-config.md > /tmp/copy')]])).found_doc).toBe(
      false,
    );
  });

  it('config_correct: exactly the four current values', async () => {
    const outcome = async (content: string) => (await reached([[write(content)]])).config_correct;
    expect(await outcome(envFile(SETTINGS))).toBe('post');
    const decorated = `# release settings\n\nexport RELEASE_CHANNEL="stable-eu"\r\nSIGNING_KEY_ID = 'kx7-orchid-2291'\nARTIFACT_BUCKET=s3://ledgerd-releases-eu-central-1\nMIGRATION_MODE=expand-only`;
    expect(await outcome(decorated)).toBe('post');
    expect(await outcome(envFile(STALE_SETTINGS))).toBe(false);
    expect(await outcome(envFile(SETTINGS.slice(0, 3)))).toBe(false);
    expect(await outcome(`${envFile(SETTINGS)}DEBUG=1\n`)).toBe(false);
    expect(await outcome(`${envFile(SETTINGS)}SIGNING_KEY_ID=kx5-juniper-1187\n`)).toBe(false);
    expect(await outcome(`${envFile(SETTINGS)}see the runbook\n`)).toBe(false);
    expect(await outcome('')).toBe(false);
    expect((await reached([[readme]])).config_correct).toBe(false);
  });

  it('parseEnv keeps repeated keys apart and refuses lines that are not KEY=value', () => {
    expect(parseEnv('A=1\nA=2\n')?.get('A')).toEqual(['1', '2']);
    expect(parseEnv('A="x y"')?.get('A')).toEqual(['x y']);
    expect(parseEnv('A="x\'')?.get('A')).toEqual(['"x\'']);
    expect(parseEnv('1A=x')).toBeNull();
  });

  it('only deploy/release.env may be written', () => {
    const t = craftTrial(
      task,
      [[good, writeFile(MISSING_DOC, '# release\n'), writeFile('deploy/notes.txt', 'x')]],
      () => true,
    );
    expect(detectTamper(t.setup, t.final, task).map((v) => v.path)).toEqual([
      'deploy/notes.txt',
      MISSING_DOC,
    ]);
  });
});
