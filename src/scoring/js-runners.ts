/**
 * Whether a simple command runs a JavaScript test suite (`node --test`, `node x.test.mjs`, `npm test`,
 * `npx jest`, …) or type-checks TypeScript (`tsc`, `npx tsc`), from its argv alone: the counterpart
 * of pytest.ts. `echo node --test`, `node app.mjs` and `tsc --version` run neither.
 */
import type { Word } from './shell-words.js';
import { programName } from './shell-wrappers.js';

export type JsRunKind = 'test' | 'typecheck';

const HELP = new Set(['-v', '--version', '-h', '--help']);
/** tsc modes that check nothing. */
const TSC_INFO = new Set([...HELP, '--all', '--init', '--showConfig', '--listFilesOnly']);
const TEST_PROGRAMS = new Set(['jest', 'vitest', 'mocha']);
/** Node options that take the next word as their value. */
const NODE_VALUE_OPTIONS = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '--test-reporter',
  '--test-reporter-destination',
  '--test-name-pattern',
  '--input-type',
  '-C',
  '--conditions',
]);
/** Node's own test-file naming (`node --test` finds these), plus `.spec.`. */
const TEST_FILE =
  /(^|\/)(test|tests|__tests__)\/|(^|\/)(test|test-[^/]+|[^/]+[._-](test|spec))\.[cm]?[jt]sx?$/;
const TSC_SCRIPT = /(^|\/)tsc$|typescript\/bin\/tsc$/;
const NPM_TEST_SCRIPT = /^test(:|$)/;

/** Whether a simple command runs JS tests or a type check, and which. */
export function jsRunKind(argv: readonly Word[]): JsRunKind | null {
  const name = programName(argv[0]);
  const args = argv.slice(1);
  if (name === null) return null;
  if (name === 'tsc') return args.some((w) => TSC_INFO.has(w.text)) ? null : 'typecheck';
  if (TEST_PROGRAMS.has(name)) return args.some((w) => HELP.has(w.text)) ? null : 'test';
  if (name === 'node' || name === 'nodejs') return nodeRun(args);
  if (name === 'npx') return jsRunKind(skipOptions(args));
  if (name === 'npm' || name === 'yarn' || name === 'pnpm') return packageManagerRun(args);
  return null;
}

function nodeRun(args: readonly Word[]): JsRunKind | null {
  let test = false;
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (HELP.has(t) || /^(-e|--eval|-p|--print|-c|--check)$/.test(t)) return null;
    if (t === '--test') test = true;
    else if (NODE_VALUE_OPTIONS.has(t)) i++;
    else if (!t.startsWith('-')) {
      if (TSC_SCRIPT.test(t)) return jsRunKind(args.slice(i));
      return test || TEST_FILE.test(t) ? 'test' : null;
    }
  }
  return test ? 'test' : null;
}

/** `npm test`, `npm run test:unit`, `yarn test`, `npm exec -- tsc`, `pnpm dlx vitest`. */
function packageManagerRun(args: readonly Word[]): JsRunKind | null {
  const rest = skipOptions(args);
  const command = rest[0]?.text;
  if (command === undefined) return null;
  if (command === 'test' || command === 't' || command === 'tst') return 'test';
  if (command === 'run' || command === 'run-script')
    return NPM_TEST_SCRIPT.test(skipOptions(rest.slice(1))[0]?.text ?? '') ? 'test' : null;
  if (command === 'exec' || command === 'x' || command === 'dlx')
    return jsRunKind(skipOptions(rest.slice(1)));
  return null;
}

/** The words after leading options and `--` (npx/npm options with values are rare enough to ignore). */
function skipOptions(words: readonly Word[]): Word[] {
  let i = 0;
  while (i < words.length && (words[i] as Word).text.startsWith('-')) {
    const t = (words[i] as Word).text;
    i++;
    if (t === '--') break;
    if (t === '-p' || t === '--package') i++;
  }
  return words.slice(i);
}
