/**
 * Whether an agent message asks about a fact: one of its phrases appears as whole words, case and
 * punctuation aside ("Employee ID?" matches "employee id"; "did" does not match "id"). A phrase word
 * ending in `*` matches any word it begins.
 */

function normalized(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9*]+/)
    .filter((w) => w !== '');
}

function wordMatches(pattern: string, word: string): boolean {
  return pattern.endsWith('*') ? word.startsWith(pattern.slice(0, -1)) : word === pattern;
}

function containsPhrase(message: readonly string[], phrase: readonly string[]): boolean {
  for (let i = 0; i + phrase.length <= message.length; i++) {
    if (phrase.every((p, j) => wordMatches(p, message[i + j] ?? ''))) return true;
  }
  return false;
}

export function mentionsAny(message: string, phrases: readonly string[]): boolean {
  const words = normalized(message.replace(/\*/g, ' '));
  return phrases.some((p) => {
    const phrase = normalized(p);
    return phrase.length > 0 && containsPhrase(words, phrase);
  });
}
