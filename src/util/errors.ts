/**
 * Typed errors. Exactly one top-level handler (src/cli/main.ts) turns them into a
 * one-line message and an exit code; nothing else calls process.exit.
 */
export class AgentBenchError extends Error {
  readonly exitCode: number = 1;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A gate the user asked for failed (e.g. `validate` found an unsound task): exit 1. */
export class GateFailedError extends AgentBenchError {
  override readonly exitCode = 1;
}

/** Bad flags, a broken task or manifest, a bad config file: exit 2. */
export class UsageError extends AgentBenchError {
  override readonly exitCode = 2;
}

/** Something outside the harness is missing or broken (Docker engine, model server): exit 3. */
export class InfraError extends AgentBenchError {
  override readonly exitCode = 3;
}

/** A state the harness should never reach: a bug. */
export class InternalError extends AgentBenchError {
  override readonly exitCode = 70;
}

/** Interrupted by SIGINT/SIGTERM after cleanup: exit 130. */
export class InterruptedError extends AgentBenchError {
  override readonly exitCode = 130;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
