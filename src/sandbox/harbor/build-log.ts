/**
 * What a task image's build printed, kept to say where it failed: the step it was at (the classic
 * builder's `Step 3/7 : RUN …` lines) and the tail of that step's output, bounded.
 */
import type { ProgressEvent } from '../image/progress.js';

const TAIL_CHARS = 4096;
const SHOWN_TAIL = 400;
/** The builder's own chatter between a step's line and its output. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is matched.
const ANSI = /\u001b\[[0-9;]*m/g;
const CHATTER = /^\s*(---> |Removing intermediate container|Successfully (built|tagged))/;

export class BuildLog {
  private step: string | null = null;
  private output = '';
  /** The engine reported an error event: the build itself failed (not the stream to the engine). */
  failed = false;

  readonly onEvent = (e: ProgressEvent): void => {
    if (e.error !== undefined) this.failed = true;
    if (e.stream === undefined) return;
    // The classic builder colours a step's stderr: the colour codes are no part of what it said.
    for (const line of e.stream.replace(ANSI, '').split('\n')) {
      const step = /^Step \d+\/\d+ : (.*)$/.exec(line);
      if (step !== null) {
        this.step = `${line.slice(0, line.indexOf(' : '))} (${oneLine(step[1] ?? '', 160)})`;
        this.output = '';
      } else if (line.trim() !== '' && !CHATTER.test(line))
        this.output = `${this.output}${line}\n`.slice(-TAIL_CHARS);
    }
  };

  /** The step the build was at ("Step 3/7 (RUN make)"), or null before the first. */
  get currentStep(): string | null {
    return this.step;
  }

  /** That step's instruction: `FROM` when the build failed getting its base. */
  get atFrom(): boolean {
    return this.step === null || /^Step \d+\/\d+ \(FROM\b/i.test(this.step);
  }

  /** The failing step's output, one line, its last characters. */
  tail(): string {
    return oneLine(this.output, SHOWN_TAIL, 'end');
  }
}

function oneLine(text: string, max: number, keep: 'start' | 'end' = 'start'): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  return keep === 'end' ? `...${line.slice(-(max - 3))}` : `${line.slice(0, max - 3)}...`;
}
