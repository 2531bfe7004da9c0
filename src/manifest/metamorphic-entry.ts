/**
 * `[metamorphic.skip]` of a task manifest (task.toml, bench_manifest.json): the metamorphic
 * operators that do not apply to the task, or single derived runs of one (by the id its row
 * shows: `artifact_swap:output/index.html:numbers`), each with the author's reason, so a skip says why.
 */
import { z } from 'zod';
import { isMetamorphicOperator, METAMORPHIC_OPERATORS, type MetamorphicSkips } from '../tasks/metamorphic.js';

export const metamorphicEntry = z
  .strictObject({
    skip: z
      .record(z.string(), z.string().trim().min(1, 'give the reason the operator does not apply'))
      .superRefine((skip, ctx) => {
        for (const id of Object.keys(skip))
          if (!isMetamorphicOperator(id.split(':')[0] ?? ''))
            ctx.addIssue({
              code: 'custom',
              path: [id],
              message: `no such operator; the operators: ${Object.keys(METAMORPHIC_OPERATORS).join(', ')}`,
            });
      })
      .transform((skip): MetamorphicSkips => skip),
  })
  .optional();
