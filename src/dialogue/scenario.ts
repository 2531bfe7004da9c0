/**
 * One scenario file of a dialogue pack (tasks/helpdesk/scenarios/*.json): the seed on top of the
 * pack's base, the simulated user, the flags checked on the final state, the reference solution and
 * the gold actions, the lures, cheats and alternates. Parsed here, once; the pack (pack.ts) checks what one file cannot (ids that must exist).
 */
import { z } from 'zod';
import type { ScriptedTurn } from '../models/scripted.js';
import { DeskCheck } from './helpdesk/checks.js';
import { EMPLOYEE_ID, ScenarioSeed } from './helpdesk/seed.js';
import { UserScript } from './user/user-script.js';

/** The policy dimensions of the helpdesk pack; reports group scenarios by them. */
export const DIMENSIONS = [
  'kb_resolution',
  'identity_verification',
  'purchase_approval',
  'escalation',
  'out_of_scope',
  'priority',
] as const;

const Call = z.strictObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
});
/** One agent reply: a message to the user (text, no calls) or tool calls (any text is not sent). */
const Turn = z
  .strictObject({ text: z.string().optional(), calls: z.array(Call).default([]) })
  .transform(
    (t): ScriptedTurn => (t.text === undefined ? { calls: t.calls } : { text: t.text, calls: t.calls }),
  );
const Script = z.array(Turn).min(1);

const FlagId = z.string().regex(/^[a-z][a-z0-9_]*$/, 'flag ids are snake_case');

/** The flag every scenario has besides its own: the whole end state equals the gold actions'. */
export const END_STATE_FLAG = 'end_state';

/** A scripted run that must be caught: it misses every flag in `expect.unreached` (and fails). */
const Caught = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9_-]*$/),
  description: z.string().min(1),
  script: Script,
  expect: z.strictObject({ unreached: z.array(FlagId).min(1) }),
});

export const ScenarioFile = z.strictObject({
  id: z.string().regex(/^helpdesk_[a-z0-9_]+$/, 'scenario ids are helpdesk_<snake_case>'),
  dimension: z.enum(DIMENSIONS),
  title: z.string().min(1),
  /** What the scenario tests and what the policy says the right outcome is. */
  description: z.string().min(1),
  difficulty: z.enum(['easy', 'medium', 'hard']),
  /** The employee the user is (and claims to be): the checks' "requester". */
  requester: z.string().regex(EMPLOYEE_ID),
  seed: ScenarioSeed,
  /** The tools offered (default: every helpdesk tool). */
  tools: z.array(z.string().min(1)).optional(),
  max_turns: z.number().int().min(4).max(100).default(30),
  user: UserScript,
  flags: z.array(z.strictObject({ id: FlagId, check: DeskCheck })).min(1),
  /**
   * The calls that take a fresh desk to the end state the policy wants: replayed at load, their end
   * state is what every trial's whole end state must equal (flag end_state).
   */
  gold_actions: z.array(Call).min(1),
  reference: Script,
  /** Failures the scenario is built to catch, each on the flags it names. */
  lures: z.array(Caught).min(1),
  /** Runs that look right on the flags of old and game them (an extra ticket, a citation not read first). */
  cheats: z.array(Caught).default([]),
  /** Legitimate runs in another style than the reference: each must pass. */
  alternates: z
    .array(
      z.strictObject({
        id: z.string().regex(/^[a-z][a-z0-9_-]*$/),
        description: z.string().min(1),
        script: Script,
      }),
    )
    .default([]),
});
export type ScenarioFile = z.infer<typeof ScenarioFile>;
