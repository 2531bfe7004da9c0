/**
 * The seeded draw of a dialogue instance: which of `size` choices a pool takes for instance `id`.
 * A hash, not a stateful generator, so each pool's draw depends on the id and its own name only
 * (adding a pool leaves the others' draws as they were), on any machine.
 */
import { sha256 } from '../../util/hash.js';

export function seededIndex(id: string, pool: string, size: number): number {
  // 52 bits of the hash: exact in a double, and the modulo's bias is below 2^-30 for any pool here.
  const bits = Number.parseInt(sha256(`${id}\u0000${pool}`).slice(0, 13), 16);
  return bits % size;
}
