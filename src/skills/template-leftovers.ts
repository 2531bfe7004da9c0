/**
 * What `skill init` left for a person to decide and nobody did yet: the placeholder goal and the
 * `_todo` notes. The loader lets a starter manifest load (so `skill init` can show it works); validate
 * refuses it, since proving a manifest whose goal is a TODO proves nothing about the skill. Each
 * problem names the line to edit.
 */
import type { Problem } from '../manifest/problems.js';

/** The goal `skill init` writes (src/skills/init.ts): any goal still starting so is unedited. */
const TODO_GOAL = /^\s*TODO\b/;

/** `manifestText`: bench_manifest.json as written; `file`: how to name it (its path). */
export function templateLeftovers(manifestText: string, file: string): Problem[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestText);
  } catch {
    return []; // Not JSON: the loader says so.
  }
  if (typeof manifest !== 'object' || manifest === null) return [];
  const { goal, _todo: todo } = manifest as { goal?: unknown; _todo?: unknown };
  const problems: Problem[] = [];
  if (typeof goal === 'string' && TODO_GOAL.test(goal)) {
    problems.push({
      at: 'goal',
      message: `${file}:${lineOf(manifestText, /"goal"\s*:/)}: still skill init's placeholder; write the request a user makes of this skill`,
    });
  }
  if (Array.isArray(todo)) {
    const from = manifestText.search(/"_todo"\s*:/);
    todo.forEach((note, i) => {
      const at = from === -1 ? -1 : manifestText.indexOf(JSON.stringify(note), from);
      const line = at === -1 ? lineOf(manifestText, /"_todo"\s*:/) : lineAt(manifestText, at);
      problems.push({
        at: `_todo[${i}]`,
        message: `${file}:${line}: to decide: ${String(note)} (delete the note once done)`,
      });
    });
  }
  return problems;
}

function lineOf(text: string, pattern: RegExp): number {
  const at = text.search(pattern);
  return at === -1 ? 1 : lineAt(text, at);
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}
