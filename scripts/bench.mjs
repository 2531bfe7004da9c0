#!/usr/bin/env node
// Speed and memory figures of the harness itself (not of any model). Prints, asserts nothing.
// Needs the build and a Docker engine: `npm run build && node scripts/bench.mjs`.
//   - CLI start-up (`agent-bench --help`), target < 0.5 s
//   - sandbox create / reset / dispose, per-command overhead
//   - the cost of tracing agent commands (strace in the sandbox): traced vs untraced, side by side
//   - per-turn workspace snapshot on a large workspace (2,000 files, ~50 MB)
//   - text-format tool-call parsing throughput, and the host process's peak memory
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const dist = (p) => new URL(`../dist/src/${p}`, import.meta.url).href;
const { createDockerSandbox, ensureImage } = await import(dist('sandbox/index.js'));
const { parseTextToolCalls } = await import(dist('models/text-tool-calls.js'));

const ms = (t0) => `${(performance.now() - t0).toFixed(0)} ms`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  return `median ${median(times).toFixed(0)} ms over ${n}`;
}

const bin = new URL('../bin/agent-bench', import.meta.url).pathname;
console.log(
  `cli --help:            ${await timed(5, () => execFileSync(process.execPath, [bin, '--help']))}`,
);

const image = await ensureImage();
let t0 = performance.now();
const sandbox = await createDockerSandbox({ image: image.tag, labels: { run: 'bench' } });
console.log(`sandbox create:        ${ms(t0)}`);
try {
  console.log(`command overhead:      ${await timed(10, () => sandbox.runCommand('true', 10_000))}`);
  await tracingCost(sandbox);
  console.log(`reset:                 ${await timed(5, () => sandbox.reset())}`);
  await sandbox.runCommand(
    'mkdir -p big && cd big && for d in $(seq 1 20); do mkdir d$d; for f in $(seq 1 100); do head -c 25000 /dev/urandom > d$d/f$f; done; done',
    120_000,
  );
  console.log(`snapshot 2000 files:   ${await timed(5, () => sandbox.snapshot())}`);
  const big = 'x'.repeat(30_000);
  console.log(`write_file 30 KB:      ${await timed(5, (i) => sandbox.writeFile(`w${i}.txt`, big))}`);
  console.log(`read_file 30 KB:       ${await timed(5, (i) => sandbox.readFile(`w${i}.txt`))}`);
} finally {
  t0 = performance.now();
  await sandbox.dispose();
  console.log(`sandbox dispose:       ${ms(t0)}`);
}

/**
 * The same commands in a traced sandbox (the default) and an untraced one, alternating so that
 * both see the same machine, medians side by side.
 */
async function tracingCost(traced) {
  const plain = await createDockerSandbox({ image: image.tag, labels: { run: 'bench' }, trace: false });
  try {
    for (const sb of [traced, plain])
      await sb.writeFile('/workspace/bench_t/test_a.py', 'def test_a():\n    assert 1\n');
    const commands = [
      ['true', 'true'],
      ['python3 -c pass', 'python3 -c pass'],
      ['pytest, 1 test', 'cd /workspace/bench_t && python3 -m pytest -q -p no:cacheprovider'],
      ['tsc --version', 'tsc --version'],
    ];
    for (const [label, command] of commands) {
      const times = { on: [], off: [] };
      for (let i = 0; i < 9; i++) {
        for (const [key, sb] of [
          ['on', traced],
          ['off', plain],
        ]) {
          const t0 = performance.now();
          await sb.runCommand(command, 60_000);
          times[key].push(performance.now() - t0);
        }
      }
      const [on, off] = [median(times.on), median(times.off)];
      console.log(
        `${`tracing, ${label}:`.padEnd(31)}${on.toFixed(0)} ms traced, ${off.toFixed(0)} ms not (${on >= off ? '+' : ''}${(on - off).toFixed(0)} ms, medians of 9)`,
      );
    }
  } finally {
    await plain.dispose();
  }
}

const reply = `Let me look.\n${'<tool_call>{"name": "write_file", "arguments": {"path": "a.py", "content": "print(1)\\n"}}</tool_call>\n'.repeat(50)}`;
t0 = performance.now();
for (let i = 0; i < 200; i++) parseTextToolCalls(reply);
console.log(`text tool-call parse:  ${((performance.now() - t0) / 200).toFixed(2)} ms per 50-call reply`);
console.log(`peak RSS (host):       ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
