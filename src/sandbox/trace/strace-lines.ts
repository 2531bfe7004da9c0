/**
 * The lines of `strace -f -o FILE` as events, in the order the calls started. A call that another
 * process interrupted is printed in two parts (`name(args <unfinished ...>`, later
 * `<... name resumed>rest`); the parts are joined into one event, kept at the place of the first.
 */
import { closingParen } from './strace-args.js';

export type TraceEvent =
  /** A syscall; `result` is what follows ` = ` (`3`, `-1 ENOENT (...)`, `?`), '?' if it never returned. */
  | { kind: 'call'; tid: number; name: string; args: string; result: string }
  | { kind: 'exit'; tid: number; code: number }
  | { kind: 'killed'; tid: number; signal: string };

type Call = Extract<TraceEvent, { kind: 'call' }>;

const LINE = /^(\d+) +(.*)$/;
const EXITED = /^\+\+\+ exited with (\d+) \+\+\+$/;
const KILLED = /^\+\+\+ killed by (SIG[A-Z0-9]+)(?: \(core dumped\))? \+\+\+$/;
// A non-leader thread exec'd: its execve returns in the thread group leader's pid.
const SUPERSEDED = /^\+\+\+ superseded by execve in pid (\d+) \+\+\+$/;
const RESUMED = /^<\.\.\. ([a-z0-9_]+) resumed>(.*)$/;
const ENTRY = /^([a-z0-9_]+)\((.*)$/;
const CUT_MARKS = [' <unfinished ...>', ' <detached ...>'];

/** Events of a trace; a last line without its newline (cut, or still being written) is left out. */
export function traceEvents(text: string): TraceEvent[] {
  const lines = text.split('\n');
  lines.pop();
  const events: TraceEvent[] = [];
  const pending: Pending = new Map();
  for (const line of lines) {
    const m = LINE.exec(line);
    if (m !== null) readLine(Number(m[1]), m[2] as string, events, pending);
  }
  return events;
}

/** Per thread: the call waiting for its second half, and its args printed so far. */
type Pending = Map<number, { call: Call; head: string }>;

function readLine(tid: number, body: string, events: TraceEvent[], pending: Pending): void {
  const exited = EXITED.exec(body);
  if (exited !== null) return void events.push({ kind: 'exit', tid, code: Number(exited[1]) });
  const killed = KILLED.exec(body);
  if (killed !== null) return void events.push({ kind: 'killed', tid, signal: killed[1] as string });
  const superseded = SUPERSEDED.exec(body);
  if (superseded !== null) {
    const waiting = pending.get(tid);
    pending.delete(tid);
    if (waiting !== undefined) pending.set(Number(superseded[1]), waiting);
    return;
  }
  const resumed = RESUMED.exec(body);
  if (resumed !== null) {
    const waiting = pending.get(tid);
    pending.delete(tid);
    if (waiting !== undefined && waiting.call.name === resumed[1])
      complete(waiting.call, waiting.head + resumed[2]);
    return;
  }
  const entry = ENTRY.exec(body);
  if (entry === null) return; // `--- SIGTERM ... ---` and strace's notes say nothing of programs or files
  const call: Call = { kind: 'call', tid, name: entry[1] as string, args: '', result: '?' };
  events.push(call);
  const rest = entry[2] as string;
  const mark = CUT_MARKS.find((m) => rest.endsWith(m));
  if (mark === undefined) complete(call, rest);
  else pending.set(tid, { call, head: rest.slice(0, -mark.length).trimEnd() });
}

/** Fills in args and result from `args) = result` (a cut call keeps result '?'). */
function complete(call: Call, text: string): void {
  const close = closingParen(text);
  if (close < 0) return;
  call.args = text.slice(0, close);
  const result = /^\s*=\s*(.*)$/.exec(text.slice(close + 1));
  if (result !== null) call.result = (result[1] as string).trim();
}
