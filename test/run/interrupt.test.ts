/** The one interrupt handler of runs and ladders: first signal aborts and cleans up, a second exits. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInterrupt } from '../../src/run/interrupt.js';
import { InterruptedError } from '../../src/util/errors.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createInterrupt', () => {
  it('aborts on a first SIGINT with an InterruptedError, says so, and starts the cleanup', () => {
    const notes: string[] = [];
    const onStop = vi.fn();
    const before = process.listenerCount('SIGINT');
    const interrupt = createInterrupt({
      handleSignals: true,
      stopping: 'stopping',
      note: (l) => notes.push(l),
      onStop,
    });
    try {
      process.emit('SIGINT', 'SIGINT');
      expect(interrupt.signal.aborted).toBe(true);
      expect(interrupt.signal.reason).toBeInstanceOf(InterruptedError);
      expect(notes).toEqual(['SIGINT: stopping (press Ctrl-C again to exit at once)...']);
      expect(onStop).toHaveBeenCalledTimes(1);
    } finally {
      interrupt.release();
    }
    expect(process.listenerCount('SIGINT')).toBe(before);
  });

  it('exits with 130 on a second signal', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const interrupt = createInterrupt({ handleSignals: true, stopping: 'stopping', note: () => {} });
    try {
      process.emit('SIGTERM', 'SIGTERM');
      expect(exit).not.toHaveBeenCalled();
      process.emit('SIGTERM', 'SIGTERM');
      expect(exit).toHaveBeenCalledWith(130);
    } finally {
      interrupt.release();
    }
  });

  it('installs no handler when the caller owns the signals, and takes its abort as a first signal', () => {
    const before = process.listenerCount('SIGINT');
    const outside = new AbortController();
    const onStop = vi.fn();
    const notes: string[] = [];
    const interrupt = createInterrupt({
      handleSignals: false,
      signal: outside.signal,
      stopping: 'stopping',
      note: (l) => notes.push(l),
      onStop,
    });
    expect(process.listenerCount('SIGINT')).toBe(before);
    const reason = new InterruptedError('SIGINT');
    outside.abort(reason);
    expect(interrupt.signal.reason).toBe(reason);
    expect(onStop).toHaveBeenCalledTimes(1);
    expect(notes).toEqual([]);
    interrupt.release();
  });

  it('starts aborted when the outside signal already is', () => {
    const outside = new AbortController();
    outside.abort('gone');
    const interrupt = createInterrupt({
      handleSignals: false,
      signal: outside.signal,
      stopping: '',
      note: () => {},
    });
    expect(interrupt.signal.aborted).toBe(true);
    expect(interrupt.signal.reason).toBe('gone');
    interrupt.release();
  });

  it('ignores the outside signal once released', () => {
    const outside = new AbortController();
    const interrupt = createInterrupt({
      handleSignals: false,
      signal: outside.signal,
      stopping: '',
      note: () => {},
    });
    interrupt.release();
    outside.abort();
    expect(interrupt.signal.aborted).toBe(false);
  });
});
