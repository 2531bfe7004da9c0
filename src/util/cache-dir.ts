import { homedir } from 'node:os';
import { join } from 'node:path';

/** agent-bench's cache on this machine: $AGENT_BENCH_CACHE, else ~/.cache/agent-bench. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.AGENT_BENCH_CACHE ?? join(homedir(), '.cache', 'agent-bench');
}
