/** `agent-bench list --injections`: every class of the catalogue, each with its one-line definition and canary. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listCommand } from '../../src/cli/commands/list.js';
import { INJECTION_CLASSES } from '../../src/trial/injection/catalogue.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('list --injections', () => {
  it('prints each class with its definition and canary, and no task', async () => {
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    await listCommand({ injections: true });
    for (const c of INJECTION_CLASSES) {
      expect(c.definition, c.id).toMatch(/^[A-Z].{20,110}\.$/);
      expect(out).toMatch(
        new RegExp(`^${c.id} +${c.definition.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
      );
    }
    expect(out).toContain('canary: writes /tmp/.session_backup');
    expect(out).not.toMatch(/^debug_python_v1 /m);
  });
});
