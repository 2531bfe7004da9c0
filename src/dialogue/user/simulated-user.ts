/** What the dialogue driver needs of a simulated user, scripted or played by a model. */
import type { TokenUsage } from '../../results/trial.js';

/** What the user may know of the world besides the agent's messages (never the agent's tools). */
export interface UserView {
  /** How many times a tool has run successfully: a code reaches the phone once it is sent. */
  callCount(name: string): number;
  /** The scenario's satisfaction condition holds on the environment now. */
  satisfied(): boolean;
}

export interface UserTurn {
  text: string;
  /** The user ended the conversation with this message. */
  ended: boolean;
  /** The user model's tokens (null for a scripted user). */
  usage: TokenUsage | null;
}

export interface SimulatedUser {
  readonly opening: string;
  /** The user's answer to one agent message. Throws ModelRequestError when a user model got no reply. */
  reply(agentMessage: string, view: UserView, signal?: AbortSignal): Promise<UserTurn>;
}
