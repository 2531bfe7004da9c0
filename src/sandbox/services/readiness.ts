/**
 * Whether a service is ready, as the engine says: healthy by its healthcheck (Docker runs it in the
 * service's container; agent-bench reads the state), or, without one, running. A service that
 * stops, turns unhealthy, or is not healthy within what its healthcheck allows (start period, then
 * retries × (interval + timeout), and a margin) is not ready, with the checks' last output and the
 * end of its log: an infrastructure error, never the model's.
 */
import type Docker from 'dockerode';
import { ENGINE_CALL_MS, withDeadline } from '../docker/deadline.js';
import { FrameDemuxer } from '../docker/demux.js';
import { engineError } from '../docker/engine.js';
import type { ServiceSpec } from '../types.js';

const POLL_MS = 250;
const MARGIN_MS = 10_000;
const LOG_TAIL_LINES = 20;

export type Readiness = { ready: true } | { ready: false; why: string };

interface Inspected {
  State: {
    Running: boolean;
    Status: string;
    ExitCode: number;
    OOMKilled: boolean;
    Health?: { Status: string; Log?: { ExitCode: number; Output: string }[] };
  };
}

/** Waits until the service is ready or cannot be any more. */
export async function waitReady(container: Docker.Container, service: ServiceSpec): Promise<Readiness> {
  const h = service.healthcheck;
  const budget = h === undefined ? 0 : h.startPeriodMs + (h.retries + 1) * (h.intervalMs + h.timeoutMs);
  const deadline = Date.now() + budget + MARGIN_MS;
  for (;;) {
    const state = (await inspect(container)).State;
    if (!state.Running) return { ready: false, why: `${stopped(state)}${await logTail(container)}` };
    const health = state.Health?.Status;
    if (h === undefined || health === 'healthy') return { ready: true };
    if (health === 'unhealthy' || Date.now() > deadline)
      return {
        ready: false,
        why: `${health === 'unhealthy' ? 'unhealthy' : `not healthy after ${Math.round((budget + MARGIN_MS) / 1000)} s`}; its health check's last output: ${lastCheck(state)}${await logTail(container)}`,
      };
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Whether a service still runs (a trial's end asks); why not, with its log's end, when it does not. */
export async function stillRunning(container: Docker.Container): Promise<Readiness> {
  const state = (await inspect(container)).State;
  return state.Running
    ? { ready: true }
    : { ready: false, why: `${stopped(state)}${await logTail(container)}` };
}

function stopped(s: Inspected['State']): string {
  return `stopped (${s.Status}, exit code ${s.ExitCode}${s.OOMKilled ? ', killed for lack of memory' : ''})`;
}

function lastCheck(s: Inspected['State']): string {
  const last = s.Health?.Log?.at(-1);
  if (last === undefined) return '(no check has run)';
  return `exit code ${last.ExitCode}: ${oneLine(last.Output) || '(nothing)'}`;
}

async function inspect(container: Docker.Container): Promise<Inspected> {
  try {
    return (await withDeadline(
      (abortSignal) => container.inspect({ abortSignal }),
      ENGINE_CALL_MS,
      'inspecting a service',
    )) as unknown as Inspected;
  } catch (err) {
    throw engineError('inspecting a service container', err);
  }
}

/** `; its log ended: ...`, or '' when it logged nothing (or the engine would not say). */
async function logTail(container: Docker.Container): Promise<string> {
  try {
    const raw = (await withDeadline(
      () => container.logs({ stdout: true, stderr: true, tail: LOG_TAIL_LINES, follow: false }),
      ENGINE_CALL_MS,
      'reading a service log',
    )) as unknown as Buffer;
    const text = oneLine(demuxed(raw));
    return text === '' ? '' : `; its log ended: ${text}`;
  } catch {
    return '';
  }
}

/** The log's text, stdout and stderr as they came (a container without a TTY: framed). */
function demuxed(raw: Buffer): string {
  const parts: Buffer[] = [];
  const demuxer = new FrameDemuxer((_stream, payload) => parts.push(Buffer.from(payload)));
  demuxer.push(raw);
  return Buffer.concat(parts).toString('utf8');
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 1000 ? line : `…${line.slice(-999)}`;
}
