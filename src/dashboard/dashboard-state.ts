/**
 * What the dashboard remembers about a results folder between starts: which runs are hidden from the
 * matrix. Kept in `<results>/.dashboard.json` (a dot file, so the results index never reads it as a
 * result), written whole to a temporary file and renamed, so a crash never leaves half a file.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const STATE_FILE = '.dashboard.json';

interface StoredState {
  hidden: string[];
}

export function createDashboardState(resultsDir: string) {
  const path = join(resultsDir, STATE_FILE);
  let hidden: Set<string> | null = null;
  // Writes run one after another, so two quick clicks never interleave their files.
  let writing: Promise<void> = Promise.resolve();

  async function load(): Promise<Set<string>> {
    if (hidden !== null) return hidden;
    const text = await readFile(path, 'utf8').catch(() => null);
    hidden = new Set(text === null ? [] : parseHidden(text));
    return hidden;
  }

  function save(set: Set<string>): Promise<void> {
    const body: StoredState = { hidden: [...set].sort() };
    writing = writing.then(async () => {
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`);
      await rename(tmp, path);
    });
    return writing;
  }

  return {
    /** Names of the results files hidden from the matrix. */
    async hidden(): Promise<ReadonlySet<string>> {
      return load();
    },
    async setHidden(file: string, hide: boolean): Promise<void> {
      const set = await load();
      if (set.has(file) === hide) return;
      if (hide) set.add(file);
      else set.delete(file);
      await save(set);
    },
  };
}

export type DashboardState = ReturnType<typeof createDashboardState>;

/** A hand-edited or foreign file is read for what it holds; anything unreadable means nothing is hidden. */
function parseHidden(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    const list = (value as Partial<StoredState> | null)?.hidden;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
