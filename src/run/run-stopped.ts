import type { ResultFile } from '../results/result-file.js';
import { InfraError } from '../util/errors.js';

/**
 * The run could not go on (the model server failed for good, or a results file could not be
 * written): exit 3 with one line saying why. Carries what was recorded up to then, already saved.
 */
export class RunStoppedError extends InfraError {
  readonly results: readonly ResultFile[];
  constructor(message: string, results: readonly ResultFile[], options?: { cause?: unknown }) {
    super(message, options);
    this.results = results;
  }
}
