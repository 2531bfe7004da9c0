/** Loading a pack: a broken file is a usage error naming it, before any trial; the policy states what the checks apply. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVAL_THRESHOLD_USD, MAX_CODES_PER_ACCOUNT } from '../../src/dialogue/helpdesk/policy-rules.js';
import { HELPDESK_DIR, loadPack } from '../../src/dialogue/pack.js';
import { UsageError } from '../../src/util/errors.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of the pack with one scenario file edited. */
function packWith(file: string, edit: (json: Record<string, unknown>) => unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'pack-'));
  dirs.push(dir);
  cpSync(HELPDESK_DIR, dir, { recursive: true });
  const path = join(dir, 'scenarios', file);
  const edited = edit(JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>);
  writeFileSync(path, typeof edited === 'string' ? edited : JSON.stringify(edited));
  return dir;
}

describe('loadPack', () => {
  it('refuses a file that is not JSON, naming it', () => {
    const dir = packWith('oos_payroll.json', () => '{ not json');
    expect(() => loadPack(dir)).toThrow(UsageError);
    expect(() => loadPack(dir)).toThrow(/oos_payroll\.json is not valid JSON/);
  });

  it('refuses a field the schema does not know, or a bad id', () => {
    expect(() => loadPack(packWith('oos_payroll.json', (j) => ({ ...j, extra: 1 })))).toThrow(
      /oos_payroll\.json.*extra/,
    );
    expect(() => loadPack(packWith('oos_payroll.json', (j) => ({ ...j, id: 'payroll' })))).toThrow(
      /helpdesk_/,
    );
  });

  it('refuses ids the seed does not have, and lures naming no flag', () => {
    const noEmployee = packWith('oos_payroll.json', (j) => ({ ...j, requester: 'E9999' }));
    expect(() => loadPack(noEmployee)).toThrow(/requester E9999 is not in the directory/);
    const noFlag = packWith('oos_payroll.json', (j) => {
      const lures = j.lures as { expect: { unreached: string[] } }[];
      if (lures[0] !== undefined) lures[0].expect.unreached = ['no_such_flag'];
      return j;
    });
    expect(() => loadPack(noFlag)).toThrow(/lure escalates-payroll: no flag no_such_flag/);
    const noSku = packWith('buy_two_monitors_at_limit.json', (j) => {
      const first = (j.flags as { check: { sku?: string } }[])[0];
      if (first !== undefined) first.check.sku = 'MON-99';
      return j;
    });
    expect(() => loadPack(noSku)).toThrow(/no catalogue item MON-99/);
  });

  it('refuses two scenarios with one id', () => {
    const dir = packWith('oos_payroll.json', (j) => ({ ...j, id: 'helpdesk_oos_personal_phone' }));
    expect(() => loadPack(dir)).toThrow(/used twice: helpdesk_oos_personal_phone/);
  });
});

describe('the policy', () => {
  const policy = loadPack().policy;
  it('states the numbers the checks apply', () => {
    expect(policy).toContain(`**$${APPROVAL_THRESHOLD_USD}**`);
    expect(policy).toContain(
      `at most ${['zero', 'one', 'two', 'three'][MAX_CODES_PER_ACCOUNT]} codes per account`,
    );
  });
});
