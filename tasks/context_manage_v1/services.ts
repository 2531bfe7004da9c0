/** The twenty service modules of the shop backend, in name order. */

import { TAXED_SERVICES } from './services-taxed.js';
import { UNTAXED_SERVICES } from './services-untaxed.js';
import type { ServiceSpec } from './spec.js';

export { STALE } from './services-taxed.js';

export const SERVICES: readonly ServiceSpec[] = [...TAXED_SERVICES, ...UNTAXED_SERVICES].sort((a, b) =>
  a.module < b.module ? -1 : 1,
);
