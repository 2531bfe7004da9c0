/**
 * Placeholder text: what a template or a draft says where the real content should be. The one list
 * `no_placeholders` judges an artifact's visible text by (visible-text.ts). Each rule is a marker,
 * not a word: "a to-do list", "todo" in lower case, "placeholder" as a word and `[your account](…)`
 * as a Markdown link are ordinary prose; an upper-case TODO, "Todo:", "Your text here", lorem ipsum
 * and an unfilled `{{name}}` are not. The patterns are bounded (no unbounded repeat follows another),
 * so each runs in time linear in the text.
 */

interface PlaceholderRule {
  /** How a detail names what was found. */
  name: string;
  re: RegExp;
}

const RULES: readonly PlaceholderRule[] = [
  { name: 'lorem ipsum', re: /\blorem\b|\bipsum\s+dolor\b|\bdolor\s+sit\s+amet\b/i },
  // Upper case only: the marker a writer leaves. "Todo:" with its colon is one in any case.
  { name: 'a TODO marker', re: /\b(?:TODO|TBD|FIXME|TKTK)\b/ },
  { name: 'a TODO marker', re: /\b(?:todo|tbd|fixme)\s*:/i },
  {
    name: 'fill-in text',
    re: /\b(?:your|insert|add|enter)\s+(?:[\p{L}'’-]+\s+){0,2}?(?:text|title|content|copy|heading|headline|tagline|slogan|description|logo|image|photo|picture)\s+(?:goes\s+)?here\b/iu,
  },
  {
    name: 'fill-in text',
    re: /\b(?:text|content|copy|image|logo)\s+goes\s+here\b|\b(?:company|business|brand|product)\s+name\s+here\b/i,
  },
  {
    name: 'placeholder text',
    re: /\bplaceholder\s+(?:text|copy|content|image|title|heading|name)\b|[[(<{]\s*placeholder\b|\b(?:dummy|filler)\s+(?:text|copy|content)\b/i,
  },
  // An unfilled template variable, and a bracketed instruction (not a Markdown link's text).
  { name: 'a template leftover', re: /\{\{[^{}\n]{0,80}\}\}/ },
  {
    name: 'a template leftover',
    re: /\[\s*(?:insert|your|add|enter|todo|tbd|placeholder)\b[^\]\n]{0,80}\](?!\()/i,
  },
];

export interface PlaceholderFound {
  name: string;
  /** The text found, with a little of what is around it. */
  excerpt: string;
}

/** The placeholder that comes first in `text`, or null when it has none. */
export function firstPlaceholder(text: string): PlaceholderFound | null {
  let first: { at: number; length: number; name: string } | null = null;
  for (const rule of RULES) {
    const m = rule.re.exec(text);
    if (m !== null && (first === null || m.index < first.at))
      first = { at: m.index, length: m[0].length, name: rule.name };
  }
  if (first === null) return null;
  // Up to 20 characters either side, cut back to whole words.
  const end = first.at + first.length;
  let from = Math.max(0, first.at - 20);
  const space = text.indexOf(' ', from);
  if (from > 0 && space !== -1 && space < first.at) from = space + 1;
  let to = Math.min(text.length, end + 20);
  const lastSpace = text.lastIndexOf(' ', to);
  if (to < text.length && lastSpace >= end) to = lastSpace;
  const excerpt = `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
  return { name: first.name, excerpt };
}
