/** Caps a text by keeping its head and tail, with a marker saying how much was cut from the middle. */
export interface CappedText {
  text: string;
  /** Characters removed; 0 when the text fitted. */
  cutChars: number;
}

export function capHeadTail(text: string, maxChars: number): CappedText {
  if (text.length <= maxChars) return { text, cutChars: 0 };
  // Keep more of the head: errors usually print their cause first and their summary last.
  const head = Math.ceil(maxChars * 0.6);
  const tail = maxChars - head;
  const cutChars = text.length - head - tail;
  const marker = `\n[... ${cutChars} characters cut from the middle of this output ...]\n`;
  return { text: text.slice(0, head) + marker + (tail > 0 ? text.slice(text.length - tail) : ''), cutChars };
}
