/** The sandbox conformance suite (./conformance.ts) over the Docker sandbox: one container, reset between cases. */
import { sandboxConformance } from './conformance.js';
import { IMAGE_TIMEOUT_MS, openSandbox } from './fixture.js';

sandboxConformance('Docker', () => openSandbox(), { openTimeoutMs: IMAGE_TIMEOUT_MS });
