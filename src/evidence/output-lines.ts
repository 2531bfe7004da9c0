/**
 * The text a model received from one tool call, as lines, with the harness's own additions taken
 * out: colour codes, CR line ends, the cut markers of src/util/text-cap.ts (characters) and
 * src/sandbox/docker/exec.ts (bytes), and read_file's "showing bytes" note. The lines next to a
 * cut are kept but marked, because a cut falls anywhere, usually mid-line.
 */

export interface OutputLine {
  /** The line as shown, without colour codes or a trailing CR. */
  text: string;
  /** Next to a cut: may be only part of a line of the real output. */
  fragment: boolean;
  /** The output was cut just before this line. */
  cutBefore: boolean;
}

/** Both caps write `\n[... N characters|bytes cut from the middle of this output ...]\n`. */
const CUT_MARKER = /^\[\.\.\. \d+ (?:characters|bytes) cut from the middle of this output \.\.\.\]$/;
/** Appended by dispatch.ts after a partial read_file: `[read_file: showing bytes A-B of N. ...]`. */
const READ_NOTE = /^\[read_file: showing bytes (\d+)-\d+ of \d+\. .*\]$/;
/** CSI sequences (colours, cursor moves), OSC sequences (titles, links) and two-byte escapes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape character is the point.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.includes('\u001b') ? text.replace(ANSI, '') : text;
}

export function outputLines(text: string): OutputLine[] {
  const raw = stripAnsi(text).split('\n');
  // A final newline ends the last line; it does not start an empty one.
  if (raw.at(-1) === '') raw.pop();
  const lines: OutputLine[] = [];
  let cutPending = false;
  for (const piece of raw) {
    const line = piece.endsWith('\r') ? piece.slice(0, -1) : piece;
    const readNote = READ_NOTE.exec(line);
    if (CUT_MARKER.test(line) || readNote !== null) {
      const previous = lines.at(-1);
      if (previous !== undefined) previous.fragment = true;
      // A read from a byte offset may start mid-line.
      if (readNote !== null && readNote[1] !== '0' && lines[0] !== undefined) lines[0].fragment = true;
      cutPending = readNote === null;
      continue;
    }
    lines.push({ text: line, fragment: cutPending, cutBefore: cutPending });
    cutPending = false;
  }
  return lines;
}
