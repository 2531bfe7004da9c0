/** Candidate models for ladder tests, described the way discovery would (from their names, or as set). */
import { modelRecord } from '../../src/discovery/model-record.js';
import type { DiscoveredModel } from '../../src/discovery/types.js';
import { planLadder } from '../../src/ladder/plan.js';
import type { LadderModel } from '../../src/ladder/types.js';

/** A server's model whose facts come from its name, unless given. */
export function served(name: string, facts: Partial<DiscoveredModel> = {}): DiscoveredModel {
  return { ...modelRecord({ name, kind: 'openai-compatible' }), ...facts };
}

/** One ladder model, as planLadder makes it. */
export function rungModel(name: string, facts: Partial<DiscoveredModel> = {}): LadderModel {
  const [model] = planLadder([served(name, facts)]);
  if (model === undefined) throw new Error('planLadder dropped the model');
  return model;
}
