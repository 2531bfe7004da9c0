/** Where src/tasks/folder/harbor/ imports this from until it moves to src/catalogue/harbor/ (then this file goes). */
export { COMPOSE_FILE, composeServices } from '../../../catalogue/services/compose.js';
