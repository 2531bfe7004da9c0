import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A file under test/evidence/fixtures/ (captured by fixtures/capture.sh). */
export function readFixture(path: string): string {
  return readFileSync(join(import.meta.dirname, 'fixtures', path), 'utf8');
}
