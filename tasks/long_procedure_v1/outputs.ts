/** What each step's file should hold, as the reference solution writes it. */
import {
  BY_COST,
  CARRIER_HEADER,
  CARRIER_TOTALS,
  csv,
  DELIVERED,
  HEADER,
  row,
  TOP_CARRIER,
  TOP8,
  TOP8_COST,
} from './data.js';
import { STEP_FILES } from './procedure.js';
import { PLACEHOLDER, TEMPLATE } from './template.js';

export const TABLE = [
  '<table>',
  '<tr><th>id</th><th>carrier</th><th>cost</th></tr>',
  ...TOP8.map((s) => `<tr><td>${s.id}</td><td>${s.carrier}</td><td>${s.cost}</td></tr>`),
  '</table>',
].join('\n');

const first6 = [
  csv([[...HEADER], ...DELIVERED.map(row)]),
  csv([[...HEADER], ...BY_COST.map(row)]),
  csv([[...HEADER], ...TOP8.map(row)]),
  TEMPLATE.replace(PLACEHOLDER, TABLE),
  csv([[...CARRIER_HEADER], ...CARRIER_TOTALS.map(([c, n, total]) => [c, String(n), String(total)])]),
  `DELIVERED=${DELIVERED.length}\nTOP8_COST=${TOP8_COST}\nTOP_CARRIER=${TOP_CARRIER}\n`,
];

const manifest = `${JSON.stringify(
  first6.map((content, i) => ({ step: i + 1, file: STEP_FILES[i], bytes: Buffer.byteLength(content) })),
  null,
  2,
)}\n`;

/** The seven files' contents, in step order. */
export const STEP_CONTENTS: readonly string[] = [...first6, manifest];
