/** Where src/tasks/folder/harbor/ imports this from until it moves to src/catalogue/harbor/ (then this file goes). */
export { INSTRUCTION_FILE } from '../../catalogue/native/layout.js';
