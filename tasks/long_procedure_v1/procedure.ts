/** PROCEDURE.md: seven steps, one output file each, with the report template parked in step 4. */
import { PLACEHOLDER, TEMPLATE } from './template.js';

/** The seven output files, in step order. */
export const STEP_FILES = [
  'output/step1_delivered.csv',
  'output/step2_by_cost.csv',
  'output/step3_top8.csv',
  'output/step4_report.html',
  'output/step5_carriers.csv',
  'output/step6_totals.txt',
  'output/step7_manifest.json',
] as const;

const [S1, S2, S3, S4, S5, S6, S7] = STEP_FILES;

export const PROCEDURE = `# Monthly shipments report: procedure

Input: \`data/shipments.csv\` (columns id, carrier, origin, weight_kg, cost, status).
Work through the seven steps below **in order**. Each step writes exactly one file under
\`output/\`. CSV files are comma-separated, with a header row, no quoting and no blank lines.

## Step 1: delivered shipments
Write \`${S1}\`: the header and every row of \`data/shipments.csv\` whose status is
\`delivered\`, in the original order, with all six columns in the original order.

## Step 2: sort by cost
Write \`${S2}\`: the rows of step 1 sorted by cost (a whole number of euros), highest first.
Same header and columns as step 1.

## Step 3: top eight
Write \`${S3}\`: the header and the first 8 data rows of step 2.

## Step 4: the report page
Write \`${S4}\`: the template below, reproduced exactly, except that the line
\`${PLACEHOLDER}\` is replaced by an HTML table of the step-3 rows: a \`<table>\` whose first row is
\`<tr><th>id</th><th>carrier</th><th>cost</th></tr>\`, then one
\`<tr><td>ID</td><td>CARRIER</td><td>COST</td></tr>\` per step-3 row, in step-3 order.

\`\`\`html
${TEMPLATE}\`\`\`

## Step 5: carrier summary
Write \`${S5}\` with the header \`carrier,shipments,total_cost\` and one row per carrier found in
step 1, sorted by carrier name: the number of delivered shipments and the sum of their costs.

## Step 6: totals
Write \`${S6}\` with exactly three lines:

    DELIVERED=<number of data rows in step 1>
    TOP8_COST=<sum of the costs in step 3>
    TOP_CARRIER=<the carrier with the largest total_cost in step 5>

## Step 7: manifest
Write \`${S7}\`: a JSON array of six objects, one per file of steps 1 to 6 in step order, each
with exactly the keys \`step\` (the step number), \`file\` (the path as written above, e.g.
"${S1}") and \`bytes\` (the file's size in bytes as it is on disk).

The report is complete only when all seven files exist.
`;
