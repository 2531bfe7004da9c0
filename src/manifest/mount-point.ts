/** Where a skill folder is mounted for the agent, as published manifests expect (`skill/...`). */
import { WORKSPACE_DIR } from '../sandbox/types.js';

export const SKILL_MOUNT = `${WORKSPACE_DIR}/skill`;
