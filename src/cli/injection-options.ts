/** `--injection-site`, `--injection-rate`, `--injection-classes` and `--injection-seed`, as the adversarial condition. */

import { INJECTION_SITE_MODES, type InjectionSiteMode, type RunCondition } from '../results/condition.js';
import { classesNamed, INJECTION_CLASSES } from '../trial/injection/catalogue.js';
import { UsageError } from '../util/errors.js';

export interface InjectionCliOptions {
  injectionSite: string;
  injectionRate: number;
  injectionClasses: string;
  injectionSeed: number;
}

export function adversarialCondition(o: InjectionCliOptions): RunCondition {
  if (!(INJECTION_SITE_MODES as readonly string[]).includes(o.injectionSite))
    throw new UsageError(
      `--injection-site: unknown site ${JSON.stringify(o.injectionSite)} (choose from ${INJECTION_SITE_MODES.join(', ')})`,
    );
  const site = o.injectionSite as InjectionSiteMode;
  const classes = injectionClasses(o.injectionClasses);
  return {
    name: 'adversarial',
    injection_site: site,
    ...(site === 'sampled' ? { injection_rate: o.injectionRate } : {}),
    ...(classes === null ? {} : { injection_classes: classes }),
    ...(o.injectionSeed === 0 ? {} : { injection_seed: o.injectionSeed }),
  };
}

/** `all` (null: every class) or a comma-separated list of class ids, in catalogue order. */
function injectionClasses(list: string): string[] | null {
  const ids = [
    ...new Set(
      list
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  if (ids.length === 0 || (ids.length === 1 && ids[0] === 'all')) return null;
  const named = classesNamed(ids);
  if (!named.ok)
    throw new UsageError(
      `--injection-classes: unknown class ${named.unknown.map((n) => JSON.stringify(n)).join(', ')} (see agent-bench list --injections)`,
    );
  // Every class named is the same as all: the condition keeps its plain name.
  if (named.classes.length === INJECTION_CLASSES.length) return null;
  return named.classes.map((c) => c.id);
}
