/**
 * doctor's model-server checks against a scripted OpenAI-compatible server that answers like
 * llama-server: refusing tools without --jinja, and a context smaller than the suite needs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkModelServer } from '../../src/cli/commands/doctor-server.js';
import { DEFAULT_REQUIRED_CONTEXT } from '../../src/discovery/pre-run.js';
import {
  type ScriptedReply,
  type ScriptedServer,
  startScriptedServer,
  unusedPortUrl,
} from '../helpers/scripted-server.js';

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** llama-server's /props: per-slot context `nCtx` over `slots` slots. */
function props(nCtx: number, slots = 1): unknown {
  return { build_info: 'b6100-test', default_generation_settings: { n_ctx: nCtx }, total_slots: slots };
}

/** What llama-server started without --jinja answers to any request carrying `tools`. */
const NO_JINJA: ScriptedReply = { status: 500, error: 'tools param requires --jinja flag' };

async function llamaServer(o: { jinja: boolean; nCtx: number; slots?: number }): Promise<ScriptedServer> {
  server = await startScriptedServer({
    scripts: {
      'Qwen3-4B-Q4_K_M.gguf': (body) => (!o.jinja && body.tools !== undefined ? NO_JINJA : { text: 'ok' }),
    },
    props: props(o.nCtx, o.slots),
  });
  return server;
}

const env = {};

describe('doctor: the model server', () => {
  it('llama-server without --jinja is a failure whose fix is --jinja, not "ok"', async () => {
    const s = await llamaServer({ jinja: false, nCtx: 32_768 });
    const findings = await checkModelServer({ baseUrl: s.baseUrl, env });
    const tools = findings.find((f) => f.what.startsWith('tool calls'));
    expect(tools).toMatchObject({ level: 'fail', fix: 'restart llama-server with --jinja' });
    expect(tools?.detail).toContain('HTTP 500: tools param requires --jinja flag');
    // The probe is the run's kind of request: one tool, in a chat request to the listed model.
    expect(s.requests[0]?.body.tools).toHaveLength(1);
    expect(findings.find((f) => f.what.startsWith('context'))?.level).toBe('ok');
  });

  it('a context smaller than the suite needs is a failure with the -c to restart with (times the slots)', async () => {
    const s = await llamaServer({ jinja: true, nCtx: 4096, slots: 2 });
    const findings = await checkModelServer({ baseUrl: s.baseUrl, env });
    const context = findings.find((f) => f.what.startsWith('context'));
    expect(context?.level).toBe('fail');
    expect(context?.detail).toContain(`4096 tokens per request, less than the ${DEFAULT_REQUIRED_CONTEXT}`);
    expect(context?.fix).toContain(`restart llama-server with -c ${2 * DEFAULT_REQUIRED_CONTEXT}`);
    expect(findings.find((f) => f.what.startsWith('tool calls'))?.level).toBe('ok');
  });

  it('a server with --jinja and enough context is ok throughout', async () => {
    const s = await llamaServer({ jinja: true, nCtx: DEFAULT_REQUIRED_CONTEXT });
    const findings = await checkModelServer({ baseUrl: s.baseUrl, env });
    expect(findings.map((f) => f.level)).toEqual(['ok', 'ok', 'ok']);
  });

  it('finds a local server the way a run does, and checks it the same', async () => {
    const s = await llamaServer({ jinja: false, nCtx: 2048 });
    const findings = await checkModelServer({
      env,
      localServers: [
        { baseUrl: await unusedPortUrl(), kind: 'ollama' },
        { baseUrl: s.baseUrl, kind: 'llama-server' },
      ],
    });
    expect(findings[0]).toMatchObject({ level: 'ok', what: 'model server' });
    expect(findings.filter((f) => f.level === 'fail').map((f) => f.fix)).toEqual([
      'restart llama-server with --jinja',
      `restart llama-server with -c ${DEFAULT_REQUIRED_CONTEXT}`,
    ]);
  });

  it('a model the server does not list is named, with the ones it does', async () => {
    const s = await llamaServer({ jinja: true, nCtx: 32_768 });
    const findings = await checkModelServer({ baseUrl: s.baseUrl, model: 'other', env });
    expect(findings.at(-1)).toMatchObject({ level: 'fail', fix: 'pass one of: Qwen3-4B-Q4_K_M.gguf' });
  });

  it('a server that is down is one failure', async () => {
    const findings = await checkModelServer({ baseUrl: await unusedPortUrl(), env });
    expect(findings).toHaveLength(1);
    expect(findings[0]?.level).toBe('fail');
  });
});

describe('doctor: a template without tool support', () => {
  it('is a note (runs parse calls from the text), not a failure', async () => {
    server = await startScriptedServer({
      scripts: { m: [] },
      props: {
        build_info: 'b1',
        default_generation_settings: { n_ctx: DEFAULT_REQUIRED_CONTEXT },
        chat_template_caps: { supports_tool_calls: false },
      },
    });
    const findings = await checkModelServer({ baseUrl: server.baseUrl, env });
    expect(findings.map((f) => f.level)).toEqual(['ok', 'ok', 'ok', 'note']);
    expect(findings.at(-1)?.detail).toContain('parsed from the reply text');
  });
});
