/**
 * `[metamorphic.skip]` of a task manifest (task.toml, bench_manifest.json): the metamorphic
 * operators that do not apply to the task, each with the author's reason, so a skip says why.
 */
import { z } from 'zod';
import {
  isMetamorphicOperator,
  METAMORPHIC_OPERATORS,
  type MetamorphicOperator,
} from '../tasks/metamorphic.js';

export const metamorphicEntry = z
  .strictObject({
    skip: z
      .record(z.string(), z.string().trim().min(1, 'give the reason the operator does not apply'))
      .superRefine((skip, ctx) => {
        for (const id of Object.keys(skip))
          if (!isMetamorphicOperator(id))
            ctx.addIssue({
              code: 'custom',
              path: [id],
              message: `no such operator; the operators: ${Object.keys(METAMORPHIC_OPERATORS).join(', ')}`,
            });
      })
      .transform((skip) => skip as Partial<Record<MetamorphicOperator, string>>),
  })
  .optional();
