import { describe, expect, it } from 'vitest';
import type { ToolCallLog } from '../../src/results/trial.js';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import {
  ANCHORS,
  accentChanged,
  anchorsPreserved,
  DESK_LINE,
  linkFixed,
  NEW_PHONE,
  NEW_TITLE,
  navAdded,
  OLD_PHONE,
  OLD_TITLE,
  PAGE,
  phoneUpdated,
  titleChanged,
} from '../../tasks/big_file_edit_v1/flags.js';
import { readFile, shell, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, reachedTurns } from './crafted-trial.js';
import { builtInTask, taskFolderFile } from './folder-files.js';

const ID = 'big_file_edit_v1';
const task = builtInTask(ID);
const ORIGINAL_PAGE = taskFolderFile(ID, `files/${PAGE}`);
/** The page with the five requested edits and nothing else changed. */
const EDITED_PAGE = taskFolderFile(ID, `solution/${PAGE}`);
const NAV_NEW = '<li><a href="/runbooks">Runbooks</a></li>';

const reached = (turns: readonly (readonly CraftedCall[])[]) =>
  reachedTurns(task, craftTrial(task, turns, () => false).ctx);

const read = readFile(PAGE);
const writeEdited = writeFile(PAGE, EDITED_PAGE);
/** A write_file the loop refused: it came without its path. */
const pathless: ToolCallLog = {
  ...writeFile(PAGE, EDITED_PAGE),
  arguments: { content: EDITED_PAGE },
  invalid: 'missing_argument',
  exit_code: null,
  stderr: 'Error: write_file requires a string argument "path"',
};
const sedEdit = (page: string) => ({
  call: shell(`sed -i 's|a|b|' ${PAGE}`),
  effects: { write: { [PAGE]: page } },
});

const ALL_EDITS = [titleChanged, accentChanged, navAdded, linkFixed, phoneUpdated];

describe('big_file_edit_v1 page and edit checks', () => {
  it('the page is about 30 KB (read whole by read_file) with anchors from the first tenth to the end', () => {
    expect(ORIGINAL_PAGE.length).toBeGreaterThan(28_000);
    expect(ORIGINAL_PAGE.length).toBeLessThan(34_000);
    const offsets = ANCHORS.map((a) => ORIGINAL_PAGE.indexOf(a));
    expect(offsets[0]).toBeLessThan(ORIGINAL_PAGE.length / 8);
    expect(offsets.at(-1)).toBeGreaterThan(ORIGINAL_PAGE.length * 0.95);
    for (let i = 1; i < offsets.length; i++)
      expect((offsets[i] ?? 0) - (offsets[i - 1] ?? 0)).toBeLessThan(ORIGINAL_PAGE.length / 6);
  });

  it('the original page has none of the edits; the edited one has all, and both keep the anchors', () => {
    for (const check of ALL_EDITS) {
      expect(check(ORIGINAL_PAGE)).not.toBeNull();
      expect(check(EDITED_PAGE)).toBeNull();
    }
    expect(anchorsPreserved(ORIGINAL_PAGE)).toBeNull();
    expect(anchorsPreserved(EDITED_PAGE)).toBeNull();
  });

  it('an edit added beside the old text, or made twice, does not count', () => {
    const both = EDITED_PAGE.replace(
      `<title>${NEW_TITLE}</title>`,
      `<title>${NEW_TITLE}</title><title>${OLD_TITLE}</title>`,
    );
    expect(titleChanged(both)).not.toBeNull();
    expect(
      accentChanged(EDITED_PAGE.replace(':root {', ':root {\n        --accent: #c2410c;')),
    ).not.toBeNull();
    expect(navAdded(EDITED_PAGE.replace(NAV_NEW, `${NAV_NEW}\n        ${NAV_NEW}`))).not.toBeNull();
    expect(linkFixed(`${EDITED_PAGE}<!-- was /policies/retension -->`)).not.toBeNull();
    expect(
      phoneUpdated(EDITED_PAGE.replace(DESK_LINE, `${DESK_LINE}\n<li>On-call phone: ${NEW_PHONE}</li>`)),
    ).not.toBeNull();
  });

  it('nav_added: the right place and address; whitespace between items is free', () => {
    const atEnd = ORIGINAL_PAGE.replace(
      '<li><a href="/contacts">Contacts</a></li>',
      `<li><a href="/contacts">Contacts</a></li>\n        ${NAV_NEW}`,
    );
    expect(navAdded(atEnd)).toMatch(/Contacts, \/runbooks Runbooks/);
    expect(navAdded(EDITED_PAGE.replace('href="/runbooks"', 'href="/runbook"'))).not.toBeNull();
    const oneLine = EDITED_PAGE.replace(/<ul id="nav">[\s\S]*?<\/ul>/, (ul) => ul.replace(/\n\s*/g, ''));
    expect(navAdded(oneLine)).toBeNull();
  });

  it('phone_updated: a global replace changes the desk line too', () => {
    expect(phoneUpdated(EDITED_PAGE.replaceAll(OLD_PHONE, NEW_PHONE))).toMatch(/desk/);
  });

  it('anchors_preserved: truncation, summarising, reordering and repetition are caught', () => {
    expect(anchorsPreserved(EDITED_PAGE.slice(0, 8000))).not.toBeNull();
    expect(anchorsPreserved(EDITED_PAGE.slice(0, -400))).not.toBeNull();
    const summarized = EDITED_PAGE.replace(
      / {4}<section id="s10"[\s\S]*?(?= {4}<section id="s36")/,
      '<!-- unchanged -->\n',
    );
    expect(anchorsPreserved(summarized)).not.toBeNull();
    const s2 = / {4}<section id="s02"[\s\S]*?<\/section>\n/.exec(EDITED_PAGE)?.[0] ?? '';
    expect(
      anchorsPreserved(EDITED_PAGE.replace(s2, '').replace('    </main>', `${s2}    </main>`)),
    ).not.toBeNull();
    expect(anchorsPreserved(EDITED_PAGE.replace('</main>', `<p>${ANCHORS[2]}</p></main>`))).not.toBeNull();
    expect(anchorsPreserved(EDITED_PAGE.replaceAll('\n', '\r\n'))).toBeNull();
  });
});

describe('big_file_edit_v1 flags', () => {
  it('a read and the edits reach every flag', async () => {
    expect(await reached([[read], [writeEdited]])).toEqual({
      page_read: 1,
      args_intact: 'post',
      title_changed: 'post',
      accent_changed: 'post',
      nav_added: 'post',
      link_fixed: 'post',
      phone_updated: 'post',
      anchors_preserved: 'post',
      no_collateral: 'post',
    });
  });

  it('doing nothing scores 0: anchors and args need the page to have been edited', async () => {
    const idle = craftTrial(task, [], () => true);
    expect(scoreTrial(task.flags, await evaluate(task, idle.ctx), false).score).toBe(0);
    expect(await reached([[read]])).toMatchObject({
      page_read: false,
      args_intact: false,
      anchors_preserved: false,
    });
  });

  it('args_intact: one refused call spoils it, even if the page ends up right', async () => {
    expect((await reached([[read], [pathless], [writeEdited]])).args_intact).toBe(false);
    const malformed: ToolCallLog = {
      ...shell('ls'),
      arguments: null,
      invalid: 'bad_arguments',
      exit_code: null,
    };
    expect((await reached([[read], [malformed], [writeEdited]])).args_intact).toBe(false);
    const failedRead = readFile('site/other.html', {}, { exit: 1 });
    expect((await reached([[read, failedRead], [writeEdited]])).args_intact).toBe('post');
  });

  it('page_read: a read naming the page before the first change', async () => {
    expect((await reached([[writeEdited]])).page_read).toBe(false);
    expect((await reached([[writeEdited], [read]])).page_read).toBe(false);
    expect((await reached([[shell(`grep -n retension ${PAGE}`)], [sedEdit(EDITED_PAGE)]])).page_read).toBe(1);
    expect((await reached([[shell('grep -rn retension site')], [sedEdit(EDITED_PAGE)]])).page_read).toBe(1);
    expect((await reached([[shell(`grep -c retension ${PAGE}`)], [sedEdit(EDITED_PAGE)]])).page_read).toBe(
      false,
    );
    expect((await reached([[shell(`cat ${PAGE} | wc -l`)], [sedEdit(EDITED_PAGE)]])).page_read).toBe(false);
  });

  it('a truncating rewrite keeps the early edits and loses the anchors', async () => {
    const truncated = writeFile(PAGE, `${EDITED_PAGE.slice(0, 8000)}\n</main></body></html>\n`);
    expect(await reached([[read], [truncated]])).toMatchObject({
      title_changed: 'post',
      accent_changed: 'post',
      link_fixed: false,
      phone_updated: false,
      anchors_preserved: false,
    });
    expect((await reached([[read], [writeFile(PAGE, '')]])).anchors_preserved).toBe(false);
  });

  it('only the page may change', () => {
    const t = craftTrial(task, [[writeEdited, writeFile('site/index.html.bak', ORIGINAL_PAGE)]], () => true);
    expect(detectTamper(t.setup, t.final, task).map((v) => v.path)).toEqual(['site/index.html.bak']);
  });
});
