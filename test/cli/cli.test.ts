/** The built executable as a user runs it: exit codes, one-line errors, and the default run. */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { allTasks } from '../../src/catalogue/built-in.js';
import { readResultFiles } from '../../src/results/store.js';
import { startScriptedServer, unusedPortUrl } from '../helpers/scripted-server.js';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/agent-bench');

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, CI: 'true' },
      timeout: 600_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe.sequential('agent-bench CLI', () => {
  it('bad usage exits 2 with one line', async () => {
    const r = await cli(['run', '--k', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--k must be an integer >= 1/);
    const unknown = await cli(['run', '--tasks', 'no_such_task', '--model', 'oracle']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toMatch(/unknown task "no_such_task"; known tasks: (\S+, )*debug_python_v1, /);
  });

  it('an unreachable model server exits 3 with one clear line', async () => {
    const url = await unusedPortUrl();
    const r = await cli(['run', '--model', 'm', '--base-url', url, '--tasks', 'debug_python_v1']);
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`model server at ${url}`);
    expect(r.stderr).toContain('unreachable');
  });

  it('doctor checks the engine and the image, and says what to do about a missing model server', async () => {
    const r = await cli(['doctor']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ok\s+Docker engine: version /);
    expect(r.stdout).toMatch(/ok\s+sandbox image: agent-bench-sandbox:/);
    expect(r.stdout).toContain('model server');
    const down = await cli(['doctor', '--base-url', await unusedPortUrl()]);
    expect(down.code).toBe(3);
    expect(down.stdout).toMatch(/fail\s+model server: .*unreachable/);
  });

  it('doctor fails llama-server started without --jinja, with the fix, as the run would fail', async () => {
    const server = await startScriptedServer({
      scripts: {
        'm.gguf': (body) =>
          body.tools === undefined
            ? { text: 'ok' }
            : { status: 500, error: 'tools param requires --jinja flag' },
      },
      props: { build_info: 'b1-test', default_generation_settings: { n_ctx: 32_768 } },
    });
    try {
      const r = await cli(['doctor', '--base-url', server.baseUrl]);
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(/ok\s+model server: /);
      expect(r.stdout).toMatch(/fail\s+tool calls \(m\.gguf\): the server refuses a request with tools/);
      expect(r.stdout).toContain('-> restart llama-server with --jinja');
      expect(r.stdout).toMatch(/ok\s+context length \(m\.gguf\): 32768 tokens/);
    } finally {
      await server.close();
    }
  });

  it('list names every task with its flags', async () => {
    const r = await cli(['list']);
    expect(r.code).toBe(0);
    for (const task of allTasks()) expect(r.stdout).toContain(task.id);
    expect(r.stdout).toContain('self_verify*');
  });

  it('list --flags shows what each flag asks for, causal rules included', async () => {
    const r = await cli(['list', '--flags']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /file_read: Saw durations\.py before first changing it.*earlier turn than the one that decided the change/,
    );
    expect(r.stdout).toMatch(/end_state: /);
  });

  it('a reader that closed the pipe (`list | head -1`) ends the command quietly, exit 0', async () => {
    const child = spawn(process.execPath, [BIN, 'list'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Closed before the first write: every write of the command meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('with no model server, the default run uses the reference agent, says so, and its oracles pass', async () => {
    // One light task of each kind: that the default selection is every task is the options table's
    // (test/cli/option-table.test.ts: --tasks defaults to "all") and test/skills/cli.test.ts's ("all"
    // is every built-in task); that every oracle passes, the whole-suite validate's (test/proofs/).
    const kinds = new Map<string, string>();
    for (const t of allTasks()) if (t.meta.heavy !== true && !kinds.has(t.kind)) kinds.set(t.kind, t.id);
    const tasks = [...kinds.values()];
    const dir = await mkdtemp(join(tmpdir(), 'agent-bench-cli-'));
    const r = await cli(['--tasks', tasks.join(','), '--results-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('No model server found');
    expect(r.stderr).toContain('--model oracle');
    const results = (await readResultFiles(dir)).results.map((f) => f.result);
    expect(results.map((x) => x.task_id).sort()).toEqual([...tasks].sort());
    for (const result of results) {
      expect(result.model).toBe('oracle');
      expect({ task: result.task_id, pass: result.pass_all_k }).toEqual({ task: result.task_id, pass: true });
    }
    for (const id of tasks) expect(r.stdout).toMatch(new RegExp(`${id}\\s+oracle\\s+PASS \\(k=1\\)`));
  });
});
