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

  it('replays the gold actions at load: one the desk refuses or fails is an error naming scenario and action', () => {
    const failing = packWith('buy_monitor_under_limit.json', (j) => {
      const gold = j.gold_actions as { name: string; arguments: Record<string, unknown> }[];
      const order = gold.find((a) => a.name === 'place_order');
      if (order !== undefined) order.arguments.approval_id = 'APR-2999';
      return j;
    });
    expect(() => loadPack(failing)).toThrow(
      /buy_monitor_under_limit\.json: scenario helpdesk_buy_monitor_under_limit: gold action 2 \(place_order\) fails: .*no approval APR-2999/,
    );
    const refused = packWith('oos_payroll.json', (j) => ({
      ...j,
      gold_actions: [...(j.gold_actions as unknown[]), { name: 'delete_everything', arguments: {} }],
    }));
    expect(() => loadPack(refused)).toThrow(/gold action 3 \(delete_everything\) is refused: .*unknown tool/);
    const noGold = packWith('oos_payroll.json', (j) => ({ ...j, gold_actions: [] }));
    expect(() => loadPack(noGold)).toThrow(/oos_payroll\.json: gold_actions/);
  });

  it('keeps end_state for itself, and cheats must name flags it has', () => {
    const taken = packWith('oos_payroll.json', (j) => {
      (j.flags as { id: string }[])[0] = { id: 'end_state', check: { kind: 'not_escalated' } } as never;
      return j;
    });
    expect(() => loadPack(taken)).toThrow(/flag id end_state is every scenario's own/);
    const noFlag = packWith('oos_payroll.json', (j) => {
      const cheats = j.cheats as { expect: { unreached: string[] } }[];
      if (cheats[0] !== undefined) cheats[0].expect.unreached = ['end_state', 'no_such_flag'];
      return j;
    });
    expect(() => loadPack(noFlag)).toThrow(/cheat extra-ticket-left-open: no flag no_such_flag/);
  });

  it("recognises a confirmation only by phrases of the user's confirming fact and of no other line", () => {
    const edit = (said: string[], fact = 'fix_worked') =>
      packWith('kb_printer_queue.json', (j) => {
        const flag = (j.flags as { id: string; check: Record<string, unknown> }[]).find(
          (f) => f.id === 'confirmed_before_close',
        );
        if (flag !== undefined) flag.check = { ...flag.check, said, fact };
        return j;
      });
    expect(() => loadPack(edit(['came out'], 'no_fact'))).toThrow(/no user fact no_fact/);
    expect(() => loadPack(edit(['all good']))).toThrow(/fact fix_worked says none of all good/);
    // "printed" is in the impact line too: it would count that line as a confirmation.
    expect(() => loadPack(edit(['printed', 'came out']))).toThrow(/the user also says "I can keep working/);
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
