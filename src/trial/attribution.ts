/**
 * Who a failure during a trial is charged to. An `error` trial is not measured: it drops out of
 * pass^k, scores, tiers, axes and the gate. So a failure is the harness's only when the harness can
 * show it came from outside the agent's reach (the engine, the model server, the harness's own
 * code); anything the agent's processes or code could have caused is a measured failed trial of
 * the model, with its reason. Otherwise an agent that is about to fail could make its trial "not
 * run" and rank above an honest model of the same ability. The README's table "Whose failure is
 * it" is this function in words; test/agent/attribution.test.ts tests each row.
 *
 * The evidence for "within the agent's reach" is the sandbox's: an exec that missed its deadline
 * while the engine still answered stalled *inside the container*, where the agent's processes (and
 * its code run by a check) live; an engine that does not answer, a container that stopped, a
 * request the model server did not answer, or any other error are the harness's. The model's own
 * request follows the same rule on the server's side (src/models/openai-compatible.ts): no reply in
 * time while the server still answers its probe is the model's failure (`request_timeout`). A task's
 * service that stopped during the turns (the agent shares its network and may have crashed it with
 * a request) is the agent's too (`service_stopped`); one that never became ready is the harness's.
 */
import type { AgentFault } from '../results/trial.js';
import { ExecStalled, ServiceStopped } from '../sandbox/index.js';
import { errorMessage } from '../util/errors.js';

/** When the failure happened: during the agent's turns (its tools), or while the harness judged. */
export type TrialPhase = 'turns' | 'judging';

export type Attribution = { charge: 'agent'; fault: AgentFault } | { charge: 'harness'; reason: string };

export function attribute(err: unknown, phase: TrialPhase): Attribution {
  // Asked only once the agent has had turns: a service it could reach by its requests stopped.
  if (err instanceof ServiceStopped)
    return { charge: 'agent', fault: { kind: 'service_stopped', detail: oneLine(errorMessage(err)) } };
  if (err instanceof ExecStalled && err.engineAnswered) {
    const detail = oneLine(errorMessage(err));
    if (phase === 'turns') return { charge: 'agent', fault: { kind: 'tool_stalled', detail } };
    // The checker runs the agent's code; root's looks at what the agent left (its files, its pids).
    const kind = err.user === 'checker' ? 'sabotaged_checks' : 'check_timeout';
    return { charge: 'agent', fault: { kind, detail } };
  }
  return { charge: 'harness', reason: oneLine(errorMessage(err)) };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
