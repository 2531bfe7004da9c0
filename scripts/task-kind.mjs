#!/usr/bin/env node
/**
 * The lint's task-kind rule: a task's kind (sandbox, skill, harbor, dialogue) is asked only where a
 * format is read or written — the loaders under src/catalogue/ and the exporter. Everything else
 * calls the task's strategies (its environment, judge, variants), so a new kind touches no runner.
 * Run from the project folder; exits 1 naming each line that asks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ALLOWED = [/^src\/catalogue\//, /^src\/cli\/commands\/task-export\.ts$/];
const KINDS = '(sandbox|skill|harbor|dialogue)';
const ASKS = [new RegExp(`\\bkind\\s*[!=]==?\\s*'${KINDS}'`), new RegExp(`\\bcase\\s+'${KINDS}'\\s*:`)];

function* sources(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* sources(path);
    else if (e.name.endsWith('.ts')) yield path;
  }
}

const found = [];
for (const path of sources('src')) {
  const rel = relative('.', path).split('\\').join('/');
  if (ALLOWED.some((a) => a.test(rel))) continue;
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (ASKS.some((a) => a.test(line))) found.push(`${rel}:${i + 1}: asks a task's kind: ${line.trim()}`);
    });
}
if (found.length > 0) {
  console.error(found.join('\n'));
  console.error(`task-kind: ${found.length} line(s) ask a task's kind outside the loaders and the exporter`);
  process.exit(1);
}
console.log("task-kind: no task's kind asked outside the loaders and the exporter");
