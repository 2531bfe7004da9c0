/** How the harness runs pytest for ground truth. */
import { CHECKER_HOME } from '../sandbox/types.js';
import type { HarnessRun } from './check-helpers.js';

/**
 * A pytest command for the harness (the checker, cwd the staged workspace) that nothing left in the
 * workspace can subvert: `-P` keeps the workspace off sys.path at start, so a planted pytest.py is
 * never imported; bytecode, including pytest's rewritten test modules, is looked up only under the
 * checker's own PYTHONPYCACHEPREFIX, so a crafted __pycache__/*.pyc (ignored, so never tamper) is
 * never loaded; --noconftest and -p no:cacheprovider keep conftest.py and the cache out.
 */
export function harnessPytest(targets: string): HarnessRun {
  return {
    command: `PYTHONPYCACHEPREFIX=${CHECKER_HOME}/pycache python3 -P -m pytest -q -p no:cacheprovider --noconftest ${targets}`,
    runner: 'pytest',
  };
}
