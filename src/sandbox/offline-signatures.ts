/**
 * What a Harbor script's output says about the network it did not have: the known signatures of a
 * tool or package fetched at run time on a machine (or in a container) with no network. Terminal-
 * Bench's verifiers install curl with apt and pytest with uv at verify time; offline that fails in
 * one of these ways, and the row should say so rather than leave a bare "reward 0".
 */

interface Signature {
  pattern: RegExp;
  /** What it means, given the match. */
  says: (m: RegExpExecArray) => string;
}

/** In the order they are looked for: the cause before its consequences (no host, then no package). */
const SIGNATURES: readonly Signature[] = [
  {
    pattern:
      /Could not resolve host:? *'?([^\s']*)|Temporary failure in name resolution|Name or service not known/,
    says: (m) => `no network: a host name${m[1] ? ` (${m[1]})` : ''} could not be resolved`,
  },
  {
    // agent-bench's own stand-ins for curl and wget (sandbox/verifier-bin/curl).
    pattern: /\b(curl|wget): no network in this sandbox: (\S+) not fetched/,
    says: (m) => `no network: ${m[1]} could not fetch ${m[2]}`,
  },
  {
    pattern: /Unable to locate package (\S+)/,
    says: (m) => `no network: apt cannot find package ${m[1]} (no package lists offline)`,
  },
  {
    pattern: /\b(uvx|uv): (?:command )?not found/,
    says: (m) => `${m[1]} is not installed (Harbor verifiers fetch it from the network)`,
  },
  {
    pattern: /No matching distribution found for (\S+)/,
    says: (m) => `no network: pip cannot get ${m[1]}`,
  },
];

/** The offline signatures found in a script's output, each said once, in SIGNATURES' order. */
export function offlineSignatures(output: string): string[] {
  const found: string[] = [];
  for (const s of SIGNATURES) {
    const m = s.pattern.exec(output);
    if (m !== null) found.push(s.says(m));
  }
  return found;
}
