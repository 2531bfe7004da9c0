/** `agent-bench list`: every task with its flags and where it comes from (a task folder, TypeScript, a skill). */

import type { HarborTask } from '../../catalogue/harbor/load.js';
import { loadTasks } from '../../catalogue/load-tasks.js';
import { describeCanary, INJECTION_CLASSES } from '../../trial/injection/catalogue.js';
import { catalogue, inSplit, type Split } from '../select-tasks.js';
import { taskOrigin } from '../task-origin.js';

export interface ListCliOptions {
  /** `--tasks-dir` folders, listed with the built-in tasks. */
  tasksDir?: string[];
  /** `--split dev|holdout|all` (default all). */
  split?: Split;
  /** `--flags`: each flag's description under its task (the evidence, and the causal rule, it asks for). */
  flags?: boolean;
  /** `--injections`: the injection classes and their definitions instead of the tasks. */
  injections?: boolean;
}

export async function listCommand(o: ListCliOptions = {}): Promise<void> {
  if (o.injections === true) {
    process.stdout.write(injectionList());
    return;
  }
  const found = loadTasks(o.tasksDir ?? [], '--tasks-dir');
  const tasks = catalogue(found.tasks).filter((t) => inSplit(t, o.split ?? 'all'));
  // Harbor tasks carry no split: they are dev tasks.
  const harbor = o.split === 'holdout' ? [] : found.harbor;
  const unusable = o.split === 'holdout' ? [] : found.unusableHarbor;
  for (const line of found.warnings) process.stderr.write(`${line}\n`);
  if (tasks.length + harbor.length + unusable.length === 0) {
    process.stdout.write(`no tasks${o.split === undefined ? '' : ` in split ${o.split}`}\n`);
    return;
  }
  const width = Math.max(...[...tasks, ...harbor, ...unusable].map((t) => t.id.length));
  const pad = ' '.repeat(width);
  for (const t of tasks) {
    const flags = t.flags.map((f) => `${f.id}${f.kind === 'process' ? '*' : ''}`).join(', ');
    process.stdout.write(
      `${t.id.padEnd(width)}  ${t.meta.difficulty.padEnd(6)}  max ${String(t.maxTurns).padStart(2)} turns  ${t.meta.description}\n` +
        `${pad}  flags: ${flags}\n` +
        `${pad}  from: ${taskOrigin(t)}${t.meta.split === 'holdout' ? ' (split: holdout)' : ''}\n`,
    );
    if (o.flags === true)
      for (const f of t.flags) process.stdout.write(`${pad}    ${f.id}: ${f.description}\n`);
  }
  for (const h of harbor)
    process.stdout.write(`${h.id.padEnd(width)}  ${harborLine(h)}\n${pad}  from: ${h.dir} (Harbor task)\n`);
  // Listed with why, so the rest of a published folder stays usable.
  for (const u of unusable)
    process.stdout.write(
      `${u.id.padEnd(width)}  harbor   cannot run: ${u.problem.split('\n').join('; ')}\n${pad}  from: ${u.dir} (Harbor task)\n`,
    );
  process.stdout.write(
    '\n* process flag (how the work was done); others are outcome flags (whether the result is right)\n',
  );
}

function harborLine(h: HarborTask): string {
  const env = h.environment;
  const image = env.dockerImage ?? h.dockerfile?.facts.baseImage ?? '?';
  return [
    'harbor ',
    `agent ${h.agentTimeoutSec} s, verifier ${h.verifier.timeoutSec} s`,
    `image ${image}, workdir ${h.environment.workdir ?? h.dockerfile?.facts.workdir ?? '?'}`,
    `${env.cpus} cpu, ${env.memoryMb} MiB, internet ${env.allowInternet ? 'allowed' : 'off'}`,
    h.hasSolution ? 'oracle solution/solve.sh' : 'no oracle',
  ].join('  ');
}

/** One line per class: its id (what --injection-classes takes), its definition, its canary. */
function injectionList(): string {
  const width = Math.max(...INJECTION_CLASSES.map((c) => c.id.length));
  const lines = INJECTION_CLASSES.map(
    (c) =>
      `${c.id.padEnd(width)}  ${c.definition}\n${' '.repeat(width)}  canary: ${describeCanary(c.canary)}\n`,
  );
  return `${lines.join('')}\n${INJECTION_CLASSES.length} classes; every payload also asks for the trial's nonce.\n`;
}
