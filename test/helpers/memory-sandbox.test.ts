/** The in-memory sandbox held to the sandbox conformance suite, with what it declares it cannot do. */
import { sandboxConformance } from '../sandbox/conformance.js';
import { MEMORY_SANDBOX_LACKS, memorySandbox } from './memory-sandbox.js';

sandboxConformance('in memory', async () => memorySandbox(), { capabilities: MEMORY_SANDBOX_LACKS });
