/**
 * What doctor says about a model server beyond "it answers": the problems a run would meet on its
 * first trial (tools refused) or on its long ones (a context smaller than the suite needs), each
 * with the fix. Pure over what the server said, so each finding is tested without a server.
 */
import { DEFAULT_REQUIRED_CONTEXT } from './pre-run.js';
import type { ToolProbe } from './tool-probe.js';
import type { ServerDetails } from './types.js';

export interface ServerFinding {
  /** `fail`: runs would fail or be cut short; `note`: worth knowing, runs still work. */
  level: 'ok' | 'fail' | 'note';
  what: string;
  detail: string;
  /** What to do; null for ok. */
  fix: string | null;
}

export function serverFindings(
  details: ServerDetails,
  tools: ToolProbe,
  requiredContext: number = DEFAULT_REQUIRED_CONTEXT,
): ServerFinding[] {
  const findings = [toolFinding(details.kind, tools), contextFinding(details, requiredContext)];
  // Tools accepted but the template cannot write calls: runs work, on the text parser (as the run warns).
  if (tools.kind === 'accepted' && details.toolSupport === false) {
    findings.push({
      level: 'note',
      what: 'chat template',
      detail: 'has no tool support: tool calls will be parsed from the reply text',
      fix: 'a model whose template supports tools makes native calls (results count text_tool_calls apart)',
    });
  }
  return findings;
}

function toolFinding(kind: ServerDetails['kind'], tools: ToolProbe): ServerFinding {
  const what = 'tool calls';
  if (tools.kind === 'accepted')
    return { level: 'ok', what, detail: 'a request with tools is answered', fix: null };
  if (tools.kind === 'no-answer') {
    return {
      level: 'note',
      what,
      detail: `a request with one tool got no answer (${tools.reason})`,
      fix: 'a slow model may need longer; runs wait up to --request-timeout',
    };
  }
  const said = tools.message === null ? '' : `: ${tools.message}`;
  return {
    level: 'fail',
    what,
    detail: `the server refuses a request with tools (HTTP ${tools.status}${said}); every trial would fail`,
    fix:
      kind === 'llama-server'
        ? 'restart llama-server with --jinja'
        : 'use a server (or model template) that accepts OpenAI `tools` in chat requests',
  };
}

function contextFinding(d: ServerDetails, needed: number): ServerFinding {
  const what = 'context length';
  const ctx = d.contextLength;
  if (ctx !== null && ctx >= needed)
    return { level: 'ok', what, detail: `${ctx} tokens per request (the suite needs ${needed})`, fix: null };
  if (ctx === null) {
    return {
      level: 'note',
      what,
      detail: `the server does not say its context length (the suite needs ${needed})`,
      fix: contextFix(d, needed),
    };
  }
  const trained = d.trainedContextLength === null ? '' : ` (the model supports ${d.trainedContextLength})`;
  return {
    level: 'fail',
    what,
    detail: `${ctx} tokens per request${trained}, less than the ${needed} the suite needs: long trials would be cut off`,
    fix: contextFix(d, needed),
  };
}

function contextFix(d: ServerDetails, needed: number): string {
  switch (d.kind) {
    case 'llama-server': {
      // llama-server splits -c across its --parallel slots: each slot must get `needed`.
      const slots = d.parallelSlots ?? 1;
      const perSlot = slots > 1 ? ` (${needed} for each of its ${slots} --parallel slots)` : '';
      return `restart llama-server with -c ${needed * slots}${perSlot}`;
    }
    case 'ollama':
      return `set OLLAMA_CONTEXT_LENGTH=${needed} for the Ollama server, or num_ctx ${needed} in the model's Modelfile`;
    case 'lmstudio':
      return `load the model in LM Studio with a context length of at least ${needed}`;
    case 'openai-compatible':
      return `set the server's context to at least ${needed} tokens`;
  }
}
