#!/usr/bin/env node
// Speed and memory figures of the harness itself (not of any model), side by side from one run.
// Prints, asserts nothing. Needs the build and a Docker engine: `npm run build && npm run bench`.
//   - CLI start-up (`agent-bench --help`)
//   - one agent turn of `true` (traced command + workspace snapshot) against a bare `docker exec`
//     from the docker CLI and a raw exec on the engine's socket, interleaved, and the ratio; the
//     same turn without the exec relay (an engine exec per command)
//   - the cost of tracing (strace in the sandbox): the same commands traced and untraced
//   - workspace snapshots of 1,000 / 10,000 / 100,000 unchanged files: every file read (setup,
//     final), a look of its own, and a whole turn (the snapshot folded into the command)
//   - host memory of a real trial (runTrial) of 30 turns over 100,000 files, in a child process
//   - sandbox reset, file tools, tool-call parsing, and the host's peak memory
//   - --parallel 2 against 1 on model-bound trials (scripts/bench-parallel.mjs, which also runs alone)
import { execFileSync, fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const dist = (p) => new URL(`../dist/src/${p}`, import.meta.url).href;
const { createDockerSandbox, ensureImage } = await import(dist('sandbox/index.js'));

const FILES = [1_000, 10_000, 100_000];
const TRIAL_FILES = 100_000;
const TRIAL_TURNS = 30;
// Files of 512 random bytes, 1,000 to a folder, numbered from argv[1] to argv[2].
const MAKE_FILES = `import os, sys
for i in range(int(sys.argv[1]), int(sys.argv[2])):
    os.makedirs("bench/d%d" % (i // 1000), exist_ok=True)
    with open("bench/d%d/f%d" % (i // 1000, i), "wb") as f:
        f.write(os.urandom(512))`;
// Room for 100,000 files (a page each) in the workspace and in the container's memory.
const BIG = { tmpfs: { workspaceMb: 1024 }, limits: { memory_mb: 4096 } };

if (process.argv[2] === '--memory-trial') {
  await memoryTrial();
  process.exit(0);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f0 = (x) => `${x.toFixed(0)} ms`;
async function time(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}
/** Median time of `fn` over n runs; `before` runs untimed before each. */
async function medianOf(n, fn, before = async () => {}) {
  const times = [];
  for (let i = 0; i < n; i++) {
    await before(i);
    times.push(await time(() => fn(i)));
  }
  return median(times);
}
const row = (label, ...cells) =>
  console.log(`${label.padEnd(34)}${cells.map((c) => c.padStart(16)).join('')}`);

const bin = new URL('../bin/agent-bench', import.meta.url).pathname;
row('cli --help', f0(await medianOf(5, () => execFileSync(process.execPath, [bin, '--help']))));

const image = await ensureImage();
let t0 = performance.now();
const traced = await createDockerSandbox({ image: image.tag, labels: { run: 'bench' } });
row('sandbox create', f0(performance.now() - t0));
const plain = await createDockerSandbox({ image: image.tag, labels: { run: 'bench' }, trace: false });
// The same, each command an engine exec of its own (no relay): what the relay saves.
const engineOnly = await createDockerSandbox({ image: image.tag, labels: { run: 'bench' }, relay: false });
try {
  await perTurn();
  await tracingCost();
  row('reset', f0(await medianOf(5, () => traced.reset())));
  const big = 'x'.repeat(30_000);
  row('write_file 30 KB', f0(await medianOf(5, (i) => traced.writeFile(`w${i}.txt`, big))));
  row('read_file 30 KB', f0(await medianOf(5, (i) => traced.readFile(`w${i}.txt`))));
} finally {
  await engineOnly.dispose();
  await plain.dispose();
  t0 = performance.now();
  await traced.dispose();
  row('sandbox dispose', f0(performance.now() - t0));
}
await snapshots();
await trialMemory();
const { parseTextToolCalls } = await import(dist('models/text-tool-calls.js'));
const reply = `Let me look.\n${'<tool_call>{"name": "write_file", "arguments": {"path": "a.py", "content": "print(1)\\n"}}</tool_call>\n'.repeat(50)}`;
t0 = performance.now();
for (let i = 0; i < 200; i++) parseTextToolCalls(reply);
row('text tool-call parse (50 calls)', `${((performance.now() - t0) / 200).toFixed(2)} ms`);
// A read judged against the file: a 30 KB file in 60 KB of output (was a timed unit test: timing is measured here).
const { shownLines } = await import(dist('evidence/shown-lines.js'));
const fileText = Array.from(
  { length: 1000 },
  (_, i) => `    result_${i} = transform(items[${i}], factor=${i % 7})  # step ${i}`,
)
  .join('\n')
  .slice(0, 30_000);
const noise = Array.from({ length: 400 }, (_, i) => `noise ${i}: nothing to see in this line ${i * 31}`).join(
  '\n',
);
const numbered = fileText
  .split('\n')
  .map((l, i) => `${String(i + 1).padStart(6)}\t${l}`)
  .join('\n');
const shownOutput = `${noise}\n${numbered}\n${noise}\n`.slice(0, 60_000);
row(
  'shownLines 30 KB file / 60 KB out',
  `${(await medianOf(7, () => shownLines(fileText, shownOutput))).toFixed(2)} ms`,
);
row('peak RSS, this process', `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);

// ---- --parallel speed-up (scripts/bench-parallel.mjs): model-bound trials at --parallel 1 and 2 ----
const { parallelSpeedup } = await import('./bench-parallel.mjs');
await parallelSpeedup(row);
// ---- end of --parallel speed-up ----

/**
 * One agent turn of `true` as the trial loop runs it (the command, then what changed in the
 * workspace), against the floor: a bare `docker exec` from the CLI and a raw exec on the engine's
 * socket. Interleaved round by round so that all see the same machine.
 */
async function perTurn() {
  const { rawExec } = await import(dist('sandbox/docker/raw-exec.js'));
  const Docker = (await import('dockerode')).default;
  const container = new Docker().getContainer(traced.id);
  const turn = (sb) => async () => {
    const r = await sb.runCommand('true', 10_000);
    if (r.exitCode !== 0) throw new Error(`a turn of \`true\` failed: ${r.stderr}`);
    await sb.workspaceChanges();
  };
  const ways = [
    [
      'bare CLI: docker exec -u 1000 true',
      async () => execFileSync('docker', ['exec', '-u', '1000', traced.id, 'true']),
    ],
    [
      'raw exec on the engine socket',
      () =>
        rawExec(container, {
          argv: ['true'],
          user: 'agent',
          deadlineMs: 10_000,
          maxStdoutBytes: 4096,
          maxStderrBytes: 4096,
        }),
    ],
    ['harness turn, traced', turn(traced)],
    ['harness turn, untraced', turn(plain)],
    ['harness turn, traced, no relay', turn(engineOnly)],
  ];
  const times = ways.map(() => []);
  for (let round = 0; round < 21; round++)
    for (const [i, [, fn]] of ways.entries()) times[i].push(await time(fn));
  const medians = times.map(median);
  console.log('\none turn of `true` (command + workspace snapshot), medians of 21, interleaved:');
  for (const [i, [label]] of ways.entries())
    row(`  ${label}`, f0(medians[i]), `${(medians[i] / medians[0]).toFixed(2)}x CLI`);
}

/** The same commands traced and untraced, alternating, medians side by side. */
async function tracingCost() {
  for (const sb of [traced, plain])
    await sb.writeFile('/workspace/bench_t/test_a.py', 'def test_a():\n    assert 1\n');
  const commands = [
    ['true', 'true'],
    ['python3 -c pass', 'python3 -c pass'],
    ['pytest, 1 test', 'cd /workspace/bench_t && python3 -m pytest -q -p no:cacheprovider'],
    ['tsc --version', 'tsc --version'],
  ];
  console.log("\ntracing: one command, traced vs untraced, medians of 15 (the turn's snapshot included):");
  for (const [label, command] of commands) {
    const times = { on: [], off: [] };
    for (let i = 0; i < 15; i++) {
      times.on.push(await time(() => traced.runCommand(command, 60_000)));
      times.off.push(await time(() => plain.runCommand(command, 60_000)));
    }
    const [on, off] = [median(times.on), median(times.off)];
    row(`  ${label}`, `${f0(on)} traced`, `${f0(off)} not`, `${on >= off ? '+' : ''}${f0(on - off)}`);
  }
  console.log('');
}

/**
 * Snapshots of unchanged files: every file read (setup and final listings), a look in an exec of
 * its own (a turn that ended with a file tool), and a whole turn of `true`, where the snapshot
 * runs in the command's exec; `walk` is the in-container part of that turn.
 */
async function snapshots() {
  const sb = await createDockerSandbox({ image: image.tag, labels: { run: 'bench' }, ...BIG });
  try {
    console.log('\nworkspace snapshot, unchanged files (medians):');
    row('', 'every file read', 'own exec', 'turn of `true`', 'walk in turn');
    let made = 0;
    for (const n of FILES) {
      await sb.exec(['python3', '-c', MAKE_FILES, String(made), String(n)], { timeoutMs: 600_000 });
      made = n;
      const full = await medianOf(3, () => sb.snapshot());
      // After any other exec the listing held may be behind: the look takes an exec of its own.
      const own = await medianOf(
        7,
        () => sb.workspaceChanges(),
        () => sb.exec(['true'], { user: 'root' }),
      );
      const walks = [];
      const turn = await medianOf(7, async () => {
        await sb.runCommand('true', 60_000);
        walks.push((await sb.workspaceChanges()).snapshotMs);
      });
      row(`  ${n.toLocaleString('en')} files`, f0(full), f0(own), f0(turn), f0(median(walks)));
    }
  } finally {
    await sb.dispose();
  }
}

/** Runs the memory trial in a child process, so that nothing else this script did is in its figures. */
async function trialMemory() {
  const child = fork(new URL(import.meta.url).pathname, ['--memory-trial'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the memory trial failed (exit ${code})`);
  const m = JSON.parse(out);
  console.log(
    `\na trial of ${TRIAL_TURNS} turns over ${TRIAL_FILES.toLocaleString('en')} files (runTrial, own process):`,
  );
  row('  host RSS after the trial', `${m.rssMiB} MiB`, `heap ${m.heapMiB} MiB`);
  row('  peak RSS during the trial', `${m.peakMiB} MiB`);
  row('  harness time (making the files too)', `${m.harnessSec} s`);
  row('  tool time per turn', `${m.perTurnMs} ms`);
  console.log('');
}

async function memoryTrial() {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const { runTrial } = await import(dist('trial/kernel.js'));
  const { workspaceTrial } = await import(dist('agent/workspace-trial.js'));
  const { createScriptedModel } = await import(dist('models/scripted.js'));
  const image = await ensureImage();
  const sb = await createDockerSandbox({ image: image.tag, labels: { run: 'bench' }, ...BIG });
  try {
    const task = {
      id: 'bench_memory',
      meta: { domain: 'bench', difficulty: 'easy', description: 'memory', optimalSteps: 1 },
      prompt: 'bench',
      maxTurns: TRIAL_TURNS,
      allowedWrites: ['**'],
      ignored: [],
      files: [],
      setupCommands: [`python3 -c '${MAKE_FILES}' 0 ${TRIAL_FILES}`],
      flags: [],
      referenceSolution: [],
    };
    const turns = Array.from({ length: TRIAL_TURNS }, (_, i) => ({
      calls: [
        {
          name: 'execute_command',
          arguments: { command: `echo ${i} >> bench/d0/f0; echo ${i} > bench/new${i}` },
        },
      ],
    }));
    const limits = {
      commandTimeoutMs: 60_000,
      modelStdoutChars: 8000,
      modelStderrChars: 4000,
      readLimitBytes: 65536,
    };
    const record = await runTrial(
      task,
      { index: 0, model: createScriptedModel('bench', turns), maxTurns: TRIAL_TURNS },
      workspaceTrial({ task, sandbox: sb, limits }),
    );
    gc();
    const mem = process.memoryUsage();
    const mib = (b) => (b / 1024 / 1024).toFixed(0);
    process.stdout.write(
      JSON.stringify({
        rssMiB: mib(mem.rss),
        heapMiB: mib(mem.heapUsed),
        peakMiB: (process.resourceUsage().maxRSS / 1024).toFixed(0),
        harnessSec: record.harness_sec.toFixed(1),
        perTurnMs: ((record.elapsed_sec * 1000) / record.turns).toFixed(0),
      }),
    );
  } finally {
    await sb.dispose();
  }
}
