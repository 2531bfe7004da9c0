/**
 * The host's copy of the workspace listing, kept current by every snapshot the sandbox takes:
 * most are folded into the agent's own commands, and most send only what changed since the
 * listing held here. It answers "what changed since the last look" without a listing per look,
 * and knows whether it is current: any other exec since the last snapshot may have changed the
 * workspace, so it is not.
 */
import { randomBytes } from 'node:crypto';
import type { SnapshotEntry, WorkspaceChanges, WorkspaceSnapshot } from '../types.js';
import { type SnapshotListing, type SnapshotRequest, sameEntry } from './snapshot.js';

export class WorkspaceView {
  private entries = new Map<string, SnapshotEntry>();
  /** Id the container saved `entries` under (a delta against it can come back); null: none. */
  private savedId: string | null = null;
  private current = false;
  /** Since the last look: each changed path's entry as that look saw it (undefined: absent). */
  private readonly before = new Map<string, SnapshotEntry | undefined>();
  private snapshotMs = 0;
  private readonly skip: readonly string[];

  /** `skip`: workspace-relative names of read-only mounts. */
  constructor(skip: readonly string[]) {
    this.skip = skip;
  }

  /** Whether no exec ran since the last snapshot: the listing is the workspace as the last one left it. */
  get upToDate(): boolean {
    return this.current;
  }

  request(rehash: boolean): Omit<SnapshotRequest, 'budgetMs'> {
    return { base: this.savedId, id: randomBytes(6).toString('hex'), rehash, skip: this.skip };
  }

  /** An exec other than a snapshot is about to run. */
  outdate(): void {
    this.current = false;
  }

  /**
   * Takes a snapshot's listing in, and `ms`, the harness time it cost (the next look reports
   * it); a failed one says why (the view stays out of date).
   */
  apply(listing: SnapshotListing, ms: number): { ok: true } | { ok: false; reason: string } {
    if (listing.kind === 'failed') return { ok: false, reason: listing.reason };
    if (listing.kind === 'delta' && listing.base !== this.savedId)
      return {
        ok: false,
        reason: `a change list against ${listing.base}, but the listing held is ${this.savedId}`,
      };
    if (listing.kind === 'full') {
      for (const [path, entry] of this.entries)
        if (!listing.entries.has(path)) this.change(path, entry, undefined);
      for (const [path, entry] of listing.entries) this.change(path, this.entries.get(path), entry);
      this.entries = listing.entries;
    } else {
      for (const [path, entry] of listing.changes) {
        this.change(path, this.entries.get(path), entry ?? undefined);
        if (entry === null) this.entries.delete(path);
        else this.entries.set(path, entry);
      }
    }
    this.savedId = listing.id;
    this.current = true;
    this.snapshotMs += ms;
    return { ok: true };
  }

  /** Paths that differ from what the previous look saw, and the snapshots' time since; starts the next look. */
  look(): WorkspaceChanges {
    const paths = [...this.before]
      .filter(([path, entry]) => !sameEntry(entry, this.entries.get(path)))
      .map(([path]) => path)
      .sort(byCodeUnit);
    const changes = { paths, snapshotMs: this.snapshotMs };
    this.before.clear();
    this.snapshotMs = 0;
    return changes;
  }

  /** The whole listing, sorted by path: a copy, which later snapshots leave as it is. */
  listing(): WorkspaceSnapshot {
    return new Map([...this.entries].sort(([a], [b]) => byCodeUnit(a, b)));
  }

  /** After a reset: the container's saved listing is gone, and the next look starts from nothing. */
  clear(): void {
    this.entries = new Map();
    this.savedId = null;
    this.current = false;
    this.before.clear();
    this.snapshotMs = 0;
  }

  private change(path: string, was: SnapshotEntry | undefined, now: SnapshotEntry | undefined): void {
    if (!this.before.has(path) && !sameEntry(was, now)) this.before.set(path, was);
  }
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
