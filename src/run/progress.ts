/**
 * What the user sees while a run goes on: one live line on a terminal, plain one-line events when
 * output is not a terminal or CI is set (so logs stay readable).
 */
import chalk from 'chalk';
import type { TrialEvent } from '../results/events.js';

export interface Progress {
  event(task: string, model: string, k: number, e: TrialEvent): void;
  /** Prints a line above the live line. */
  note(line: string): void;
  done(): void;
}

/** Where progress goes: a terminal (isTTY) gets the live line; anything else gets plain lines. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export function createProgress(stream: ProgressStream = process.stderr): Progress {
  const live = stream.isTTY === true && !process.env.CI;
  let passed = 0;
  let ended = 0;
  let lastTask = '';
  let status = '';
  let trialStart = Date.now();
  let timer: NodeJS.Timeout | null = null;

  const draw = (): void => {
    if (!live || status === '') return;
    const secs = ((Date.now() - trialStart) / 1000).toFixed(1);
    const line = `${status} · ${secs}s · passed ${passed}/${ended}`;
    stream.write(`\r\x1b[2K${line.slice(0, (stream.columns ?? 120) - 1)}`);
  };
  const print = (line: string): void => {
    if (live) stream.write('\r\x1b[2K');
    stream.write(`${line}\n`);
    draw();
  };

  return {
    event(task, model, k, e) {
      if (task !== lastTask) {
        lastTask = task;
        passed = 0;
        ended = 0;
      }
      const where = `${task} · ${model} · trial ${e.trial + 1}/${k}`;
      switch (e.type) {
        case 'trial_start':
          trialStart = Date.now();
          status = `${where} · starting`;
          if (live && timer === null) timer = setInterval(draw, 250);
          if (!live) print(`[${where}] start`);
          break;
        case 'model_reply':
          status = `${where} · turn ${e.turn}`;
          if (!live && e.text.trim() !== '') print(`[${where} · turn ${e.turn}] says: ${oneLine(e.text)}`);
          break;
        case 'model_error':
          print(`[${where} · turn ${e.turn}] ${chalk.red('model error')}: ${e.error}`);
          break;
        case 'tool_call':
          if (!live) {
            const outcome = e.invalid !== null ? `INVALID (${e.invalid})` : `exit ${e.exit_code ?? '?'}`;
            print(
              `[${where} · turn ${e.turn}] ${e.name}${e.source === 'text' ? ' (text)' : ''} ${oneLine(e.arg)} -> ${outcome}`,
            );
          }
          break;
        case 'trial_end': {
          ended++;
          if (e.passed) passed++;
          const verdict = e.passed
            ? chalk.green('PASS')
            : e.status === 'error'
              ? chalk.red('ERROR')
              : chalk.yellow('FAIL');
          print(`[${where}] ${verdict} score ${e.score.toFixed(2)} in ${e.turns} turns`);
          break;
        }
      }
      draw();
    },
    note: print,
    done() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      if (live) stream.write('\r\x1b[2K');
    },
  };
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}
