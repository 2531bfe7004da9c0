// `npm run docs:cli`: writes docs/commands.md from the built CLI definition (run after `npm run build`).
import { writeFileSync } from 'node:fs';
import { buildProgram } from '../dist/src/cli/main.js';
import { configFileSection } from '../dist/src/cli/option-table/reference.js';
import { commandReference } from '../dist/src/cli/reference.js';

const out = new URL('../docs/commands.md', import.meta.url);
writeFileSync(out, commandReference(buildProgram(), configFileSection()));
process.stdout.write('wrote docs/commands.md\n');
