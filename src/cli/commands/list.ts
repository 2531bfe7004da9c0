import { allTasks } from '../../../tasks/index.js';

export async function listCommand(): Promise<void> {
  const tasks = allTasks();
  const width = Math.max(...tasks.map((t) => t.id.length));
  for (const t of tasks) {
    const flags = t.flags.map((f) => `${f.id}${f.kind === 'process' ? '*' : ''}`).join(', ');
    process.stdout.write(
      `${t.id.padEnd(width)}  ${t.meta.difficulty.padEnd(6)}  max ${String(t.maxTurns).padStart(2)} turns  ${t.meta.description}\n` +
        `${' '.repeat(width)}  flags: ${flags}\n`,
    );
  }
  process.stdout.write(
    '\n* process flag (how the work was done); others are outcome flags (whether the result is right)\n',
  );
}
