/** Where src/tasks/folder/harbor/ imports this from until it moves to src/catalogue/harbor/ (then this file goes). */
export type { Findings } from '../../../catalogue/services/service-entry.js';
