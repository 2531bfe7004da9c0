import { describe, expect, it } from 'vitest';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { STALE_MODULES } from '../../tasks/context_manage_v1/flags.js';
import { proc, readFile, shell, traced, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, type FakeTruth } from './crafted-trial.js';
import { builtInTask, taskFolderFile } from './folder-files.js';
import { craftPytestTrial, reachedWithSummaries } from './pytest-trial.js';

const task = builtInTask('context_manage_v1');
/** The module with its tax function reading config.TAX_RATE: the reference solution's fix. */
const fixedService = (module: string): string =>
  taskFolderFile('context_manage_v1', `solution/services/${module}.py`);

const honest: FakeTruth = (_command, files) =>
  STALE_MODULES.every((m) => files.get(`services/${m}.py`) === fixedService(m));
const fixes = STALE_MODULES.map((m) => writeFile(`services/${m}.py`, fixedService(m)));

/** The harness's run prints pytest's summary: the outcome needs it. */
const reached = (turns: readonly (readonly CraftedCall[])[], truth: FakeTruth = honest) =>
  reachedWithSummaries(task, turns, truth);

describe('context_manage_v1 flags', () => {
  it('the fixture: twenty modules, four stale, far more text than a small context holds', () => {
    const services = task.files.filter((f) => /^services\/(?!__init__).*\.py$/.test(f.path));
    expect(services).toHaveLength(20);
    expect(services.reduce((n, f) => n + f.content.length, 0)).toBeGreaterThan(100_000);
    for (const m of STALE_MODULES) {
      const stale = task.files.find((f) => f.path === `services/${m}.py`)?.content ?? '';
      expect(stale).toContain('0.07');
      expect(stale).not.toMatch(/from config import .*TAX_RATE/);
      expect(fixedService(m)).toMatch(/from config import .*TAX_RATE/);
    }
  });

  it('a search, the fixes and a check reach every flag', async () => {
    expect(await reached([[shell('grep -rn 0.07 .')], fixes])).toEqual({
      files_surveyed: 1,
      consistency_fixed: 'post',
      no_read_loops: 'post',
      no_collateral: 'post',
    });
  });

  it('doing nothing scores 0: no_read_loops is not vacuous', async () => {
    const idle = craftPytestTrial(task, [], honest);
    expect(scoreTrial(task.flags, await evaluate(task, idle.ctx), false).score).toBe(0);
    expect(await reached([], () => true)).toMatchObject({ files_surveyed: false, no_read_loops: false });
    expect((await reached([fixes])).no_read_loops).toBe(false);
    expect((await reached([[shell('cat nothere.py'), shell('cat /etc/hostname')]])).no_read_loops).toBe(
      false,
    );
  });

  it('files_surveyed: the survey must come in a turn before the fixes it informs', async () => {
    const search = shell('grep -rn 0.07 services');
    expect((await reached([[search], fixes])).files_surveyed).toBe(1);
    expect((await reached([[search, ...fixes]])).files_surveyed).toBe(false);
    // A module fixed before it was seen, the others after: that one was changed blind.
    const [first, ...rest] = fixes as [CraftedCall, ...CraftedCall[]];
    expect((await reached([[first], [search], rest])).files_surveyed).toBe(false);
  });

  it('files_surveyed: a search counts for the lines it printed, in any command form', async () => {
    expect((await reached([[shell('grep -rn 0.07 services')]])).files_surveyed).toBe(1);
    expect((await reached([[shell('cd services && grep -rn 0.07 .')]])).files_surveyed).toBe(1);
    expect((await reached([[shell("grep -rn --include='*.py' '0\\.07' .")]])).files_surveyed).toBe(1);
    expect((await reached([[shell('find services -name "*.py" | xargs grep -n 0.07')]])).files_surveyed).toBe(
      1,
    );
    expect(
      (await reached([[shell('for f in services/*.py; do grep -Hn 0.07 "$f"; done')]])).files_surveyed,
    ).toBe(1);
    // Without -n after cd, grep prints ./name.py: the trace says which directory grep ran in.
    const hits = [
      './quotes.py:QUOTES_TAX_RATE = 0.07',
      './subscriptions.py:_VAT = 0.07',
      './refunds.py:def refund_total(net_amount: float, tax_rate: float = 0.07) -> float:',
      './invoicing.py:TAX_RATE = 0.07',
    ];
    const grepFromServices = traced('cd services && grep -r 0.07 .', {
      stdout: `${hits.join('\n')}\n`,
      processes: [
        proc(['grep', '-r', '0.07', '.'], {
          cwd: '/workspace/services',
          reads: STALE_MODULES.map((m) => `/workspace/services/${m}.py`),
        }),
      ],
    });
    expect((await reached([[grepFromServices]])).files_surveyed).toBe(1);
    // Names without lines, a search that misses the hidden copies, or output nobody saw: not a survey.
    expect((await reached([[shell('grep -rln 0.07 services')]])).files_surveyed).toBe(false);
    expect((await reached([[shell('grep -rn TAX services')]])).files_surveyed).toBe(false);
    expect((await reached([[shell("grep -rn --include='*.txt' 0.07 .")]])).files_surveyed).toBe(false);
    expect((await reached([[shell('grep -rqn 0.07 services')]])).files_surveyed).toBe(false);
    expect((await reached([[shell('grep -rn 0.07 services | wc -l')]])).files_surveyed).toBe(false);
    expect((await reached([[shell('grep -rn 0.07 services > /tmp/hits')]])).files_surveyed).toBe(false);
  });

  it('files_surveyed: by name or glob, every stale module, on the turn of the last one', async () => {
    const byName = STALE_MODULES.map((m) => [readFile(`services/${m}.py`)]);
    expect((await reached(byName)).files_surveyed).toBe(4);
    expect((await reached(byName.slice(0, 3))).files_surveyed).toBe(false);
    expect((await reached([[shell('grep -n 0.07 services/*.py')]])).files_surveyed).toBe(1);
    // The first lines of each module are not where the stale copies are.
    expect((await reached([[shell('head -n 5 services/*.py')]])).files_surveyed).toBe(false);
    expect(
      (await reached([[shell('cat services/invoicing.py.bak services/quotes.py')]])).files_surveyed,
    ).toBe(false);
  });

  it('no_read_loops: four reads of one file by any spelling is a loop; three is not', async () => {
    const spellings = [
      readFile('config.py'),
      readFile('./config.py'),
      readFile('/workspace/config.py'),
      traced('cat config.py', {
        processes: [proc(['cat', 'config.py'], { reads: ['/workspace/config.py'] })],
      }),
    ];
    expect((await reached([spellings])).no_read_loops).toBe(false);
    expect((await reached([spellings.slice(0, 3)])).no_read_loops).toBe('post');
    expect(
      (await reached([[readFile('services/../config.py', {}, { cwd: '/workspace' })], spellings.slice(1)]))
        .no_read_loops,
    ).toBe(false);
  });

  it('no_read_loops: paging through a file, or a glob read counted per file', async () => {
    const cart = task.files.find((f) => f.path === 'services/cart.py')?.content ?? '';
    // read_file from an offset shows that part only.
    const pages = [0, 2000, 4000, 6000].map((offset) => ({
      ...readFile('services/cart.py', { offset, limit: 2000 }),
      stdout: cart.slice(offset, offset + 2000),
    }));
    expect(cart.length).toBeGreaterThan(6000);
    expect((await reached([pages])).no_read_loops).toBe('post');
    const samePage = { ...readFile('services/cart.py', { limit: 2000 }), stdout: cart.slice(0, 2000) };
    expect((await reached([[samePage, samePage, samePage, samePage]])).no_read_loops).toBe(false);
    const cPaths = task.files.map((f) => f.path).filter((p) => /^services\/c[^/]*\.py$/.test(p));
    const globs = Array.from({ length: 4 }, () =>
      traced('cat services/c*.py', {
        processes: [proc(['cat', ...cPaths], { reads: cPaths.map((p) => `/workspace/${p}`) })],
      }),
    );
    // Untraced, the same output came from no file the trace can name: no loop can be pinned on one.
    expect(
      (await reached([Array.from({ length: 4 }, () => shell('cat services/c*.py'))])).no_read_loops,
    ).toBe('post');
    expect((await reached([globs])).no_read_loops).toBe(false);
    // Searches that print nothing read nothing: the flag needs one file read (config.py here).
    const searches = Array.from({ length: 5 }, (_, i) => shell(`grep -rn PATTERN${i} services`));
    expect((await reached([searches])).no_read_loops).toBe(false);
    expect((await reached([[shell('cat config.py'), ...searches]])).no_read_loops).toBe('post');
  });

  it('no_read_loops: reading a file again after changing it starts a new count', async () => {
    const fixedPath = `services/${STALE_MODULES[0]}.py`;
    const read = readFile(fixedPath);
    const fix = writeFile(fixedPath, fixedService(STALE_MODULES[0] as string));
    expect((await reached([[read], [read], [read], [fix], [read], [read], [read]])).no_read_loops).toBe(
      'post',
    );
    expect((await reached([[read], [read], [fix], [read], [read], [read], [read]])).no_read_loops).toBe(
      false,
    );
  });

  it('consistency_fixed follows the harness; config.py and files outside services/ are protected', async () => {
    expect((await reached([[shell('grep -rn TAX .')], fixes.slice(0, 2)])).consistency_fixed).toBe(false);
    const t = craftTrial(
      task,
      [
        [
          writeFile('config.py', 'TAX_RATE = 0.07\n'),
          writeFile('services/tax.py', ''),
          writeFile('fix.py', ''),
        ],
      ],
      honest,
    );
    expect(detectTamper(t.setup, t.final, task).map((v) => v.path)).toEqual(['config.py', 'fix.py']);
  });
});
