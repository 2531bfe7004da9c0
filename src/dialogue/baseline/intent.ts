/**
 * What the baseline makes of the opening message, by keywords alone: the kind of request, the
 * account action it asks for, the ticket's priority and category. Keywords are what a rule book can
 * apply without judgement; what needs judgement (who owns the account, how badly work is blocked)
 * the baseline does not see, by design.
 */
import type { Priority } from '../helpdesk/seed.js';
import type { AccountAction } from '../helpdesk/state.js';

export type Intent = 'security' | 'out_of_scope' | 'account' | 'purchase' | 'technical';

const SECURITY =
  /phishing|clicked the link|typed in my password|entered my password|prompts? i didn'?t|hacked|malware|virus|stolen|lost my (laptop|phone)/i;
const OUT_OF_SCOPE =
  /iphone|icloud|personal|my own (phone|computer)|paycheck|payroll|bonus|salary|benefits|expenses|turn off mfa|disable mfa/i;
const ACCOUNT = /password|locked|sign in|log ?in|\bmfa\b|authenticator/i;
const PURCHASE = /\b(order|buy|purchase|could i get|can i get|i'?d like|get me|need a new|want a new)\b/i;
const OUTAGE = /whole office|everyone|nobody can|all of us|outage|entire team/i;

export function intentOf(opening: string): Intent {
  if (SECURITY.test(opening)) return 'security';
  if (OUT_OF_SCOPE.test(opening)) return 'out_of_scope';
  if (ACCOUNT.test(opening)) return 'account';
  if (PURCHASE.test(opening)) return 'purchase';
  return 'technical';
}

export function accountActionOf(opening: string): AccountAction {
  if (/\bmfa\b|authenticator|new phone/i.test(opening)) return 'reset_mfa';
  if (/locked/i.test(opening)) return 'unlock_account';
  return 'reset_password';
}

/** From the kind of request alone: the one impact words can raise is an outage named in the opening. */
export function priorityOf(intent: Intent, opening: string): Priority {
  if (intent === 'security' || OUTAGE.test(opening)) return 'P1';
  if (intent === 'account') return 'P2';
  if (intent === 'technical') return 'P3';
  return 'P4';
}

export function categoryOf(intent: Intent): string {
  return {
    security: 'security',
    out_of_scope: 'other',
    account: 'account',
    purchase: 'purchase',
    technical: 'software',
  }[intent];
}

const NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5 };

/** "two 27-inch monitors" is 2; "3 headsets" is 3; otherwise 1. */
export function quantityOf(opening: string): number {
  const m =
    /\b(\d+|one|two|three|four|five)\s+(?:[\w-]+\s+)?(monitors|laptops|headsets|keyboards|docks|docking stations)\b/i.exec(
      opening,
    );
  if (m === null) return 1;
  const word = (m[1] ?? '').toLowerCase();
  return NUMBERS[word] ?? Number(word);
}

/** The user says the fix worked (checked after the signs that it did not). */
export function saysFixed(text: string): boolean {
  if (
    /nothing happens|didn'?t (help|work)|doesn'?t work|not working|still (not|doesn'?t)|no luck|won'?t/i.test(
      text,
    )
  )
    return false;
  return /\b(works?|worked|working|fixed|connects|came out|sharp|see myself|normally|solved)\b/i.test(text);
}
