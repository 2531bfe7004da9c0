/**
 * A dialogue pack on disk (tasks/helpdesk/): policy.md (given to the agent, and what the checks
 * apply), base.json (the directory, knowledge base and catalogue every scenario starts from) and
 * scenarios/*.json, one scenario each (scenario-load.ts). Everything is read and checked here,
 * before any trial: a broken file is a usage error naming the file, never a failed trial.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../util/errors.js';
import { packageRoot } from '../util/package-root.js';
import { BaseSeed } from './helpdesk/seed.js';
import { WordRules } from './helpdesk/words.js';
import { loadScenario, parseJson, readText, type Scenario } from './scenario-load.js';

export type { Scenario } from './scenario-load.js';

export interface DialoguePack {
  /** Absolute path of the pack's folder. */
  dir: string;
  name: string;
  organisation: string;
  policy: string;
  /** What the agent's words are judged by (words.json: helpdesk/words.ts). */
  words: WordRules;
  scenarios: Scenario[];
}

export const HELPDESK_DIR = join(packageRoot(), 'tasks', 'helpdesk');

export function loadPack(dir: string = HELPDESK_DIR): DialoguePack {
  const policy = readText(join(dir, 'policy.md'));
  const base = parseJson(join(dir, 'base.json'), BaseSeed);
  const words = parseJson(join(dir, 'words.json'), WordRules);
  const folder = join(dir, 'scenarios');
  const names = readdirSync(folder)
    .filter((n) => n.endsWith('.json'))
    .sort();
  const scenarios = names.map((name) => loadScenario(join(folder, name), base));
  const ids = scenarios.map((s) => s.file.id);
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length > 0) throw new UsageError(`${folder}: scenario ids used twice: ${twice.join(', ')}`);
  return { dir: resolve(dir), name: 'helpdesk', organisation: 'Northwind Labs', policy, words, scenarios };
}
