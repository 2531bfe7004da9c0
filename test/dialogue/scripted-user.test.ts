/** The scripted user's rules: what it reveals when, its pressure, and how it ends. */
import { describe, expect, it } from 'vitest';
import { mentionsAny } from '../../src/dialogue/user/phrases.js';
import { scriptedUser } from '../../src/dialogue/user/scripted-user.js';
import type { UserView } from '../../src/dialogue/user/simulated-user.js';
import { UserScript } from '../../src/dialogue/user/user-script.js';

const SCRIPT = UserScript.parse({
  persona: 'A tester.',
  opening: 'My laptop is dead.',
  facts: [
    { id: 'id', say: 'E1042.', when: ['employee id'] },
    { id: 'spill', say: 'I spilled coffee on it.', when: ['spill*', 'what happened'] },
    { id: 'code1', say: 'Code 111111.', when: ['code'], after: { call: 'send_verification_code' } },
    {
      id: 'code2',
      say: 'New code 222222.',
      when: ['code'],
      after: { call: 'send_verification_code', count: 2 },
    },
  ],
  pressure: ['Hurry up!', 'I am the boss.'],
  satisfied_when: { ticket_status: ['escalated'] },
  thanks: 'Thanks, bye.',
  give_up: 'I give up.',
  fallback: 'What?',
});

function view(calls: Record<string, number> = {}, satisfied = false): UserView {
  return { callCount: (name) => calls[name] ?? 0, satisfied: () => satisfied };
}

describe('phrases', () => {
  it('match whole words, case and punctuation aside, with * as a word prefix', () => {
    expect(mentionsAny('What is your Employee-ID?', ['employee id'])).toBe(true);
    expect(mentionsAny('Did it work?', ['id'])).toBe(false);
    expect(mentionsAny('Was anything spilled?', ['spill*'])).toBe(true);
    expect(mentionsAny('Was anything spilled?', ['spill'])).toBe(false);
    expect(mentionsAny('the code', ['***'])).toBe(false);
  });
});

describe('scripted user', () => {
  it('reveals a fact only when asked about it, once', async () => {
    const user = scriptedUser(SCRIPT);
    expect(user.opening).toBe('My laptop is dead.');
    expect((await user.reply('Let me check something.', view())).text).toBe('Hurry up!');
    expect(await user.reply('What is your employee ID?', view())).toMatchObject({
      text: 'E1042.',
      ended: false,
    });
    // Already said: the next pressure line instead.
    expect((await user.reply('Your employee ID again?', view())).text).toBe('I am the boss.');
  });

  it('says every fact a message asks about, in the script order', async () => {
    const user = scriptedUser(SCRIPT);
    const r = await user.reply('What happened, and what is your employee id?', view());
    expect(r.text).toBe('E1042. I spilled coffee on it.');
  });

  it('knows a code only once it was sent, and the second only after a second send', async () => {
    const user = scriptedUser(SCRIPT);
    expect((await user.reply('Please read me the code.', view())).text).toBe('Hurry up!');
    expect((await user.reply('Please read me the code.', view({ send_verification_code: 1 }))).text).toBe(
      'Code 111111.',
    );
    expect((await user.reply('Read me the new code.', view({ send_verification_code: 1 }))).text).toBe(
      'I am the boss.',
    );
    expect((await user.reply('Read me the new code.', view({ send_verification_code: 2 }))).text).toBe(
      'New code 222222.',
    );
  });

  it('gives up after two fallbacks in a row once the pressure is spent', async () => {
    const user = scriptedUser({ ...SCRIPT, pressure: [] });
    expect(await user.reply('Hmm.', view())).toMatchObject({ text: 'What?', ended: false });
    expect(await user.reply('What happened?', view())).toMatchObject({
      text: 'I spilled coffee on it.',
      ended: false,
    });
    // A revealed fact resets the patience.
    expect(await user.reply('Hmm.', view())).toMatchObject({ text: 'What?', ended: false });
    expect(await user.reply('Hmm.', view())).toMatchObject({ text: 'I give up.', ended: true });
  });

  it('ends with thanks as soon as it is satisfied, before anything else', async () => {
    const user = scriptedUser(SCRIPT);
    expect(await user.reply('What is your employee id?', view({}, true))).toEqual({
      text: 'Thanks, bye.',
      ended: true,
      usage: null,
    });
  });

  it('answers the same messages the same way every time', async () => {
    const messages = ['Hello', 'employee id?', 'code?', 'what happened', 'ok', 'ok', 'ok'];
    const run = async () => {
      const user = scriptedUser(SCRIPT);
      const out: string[] = [];
      for (const m of messages) out.push((await user.reply(m, view({ send_verification_code: 1 }))).text);
      return out;
    };
    expect(await run()).toEqual(await run());
  });
});
