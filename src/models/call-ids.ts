/**
 * Tool-call ids must be unique within a trial: tool results are matched to calls by id, and
 * servers often send none, or restart their own numbering every turn.
 */
export class CallIdAllocator {
  private readonly seen = new Set<string>();
  private counter = 0;

  /** The server's id when it is new; otherwise a fresh `call_<n>`. */
  take(serverId?: string | null): string {
    if (serverId !== undefined && serverId !== null && serverId !== '' && !this.seen.has(serverId)) {
      this.seen.add(serverId);
      return serverId;
    }
    let id: string;
    do {
      this.counter++;
      id = `call_${this.counter}`;
    } while (this.seen.has(id));
    this.seen.add(id);
    return id;
  }
}
