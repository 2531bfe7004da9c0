/**
 * Ground truth cannot be faked or outlived: the harness runs the agent's code as the checker (never
 * root), a daemon forked during the checks dies with them, and the next trial is unaffected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../src/models/scripted.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import { DEFAULT_COMMAND_TIMEOUT_SEC, DISPATCH_LIMITS } from '../../src/run/settings.js';
import type { DockerSandbox } from '../../src/sandbox/index.js';
import { runWorkspaceTrial as runTrial } from '../helpers/workspace-trial.js';
import { asRoot, IMAGE_TIMEOUT_MS, openSandbox } from '../sandbox/fixture.js';
import { builtInTask, taskFolderFile } from '../tasks/folder-files.js';

const task = builtInTask('debug_python_v1');
const FIXED_MODULE = taskFolderFile('debug_python_v1', 'solution/durations.py');

const trial = (sandbox: DockerSandbox, index: number, script: ScriptedTurn[]) =>
  runTrial({
    index,
    task,
    model: createScriptedModel('ground-truth-test', script),
    sandbox,
    maxTurns: script.length + 1,
    limits: { ...DISPATCH_LIMITS, commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_SEC * 1000 },
  });

const writeModule = (content: string): ScriptedTurn => ({
  calls: [{ name: 'write_file', arguments: { path: 'durations.py', content } }],
});

/** At import by anyone but the agent: a double-forked daemon that later tries to plant files. */
const DAEMON = `import os as _os
if _os.getuid() != 1000 and _os.fork() == 0:
    _os.setsid()
    if _os.fork() == 0:
        import time as _t
        _t.sleep(4)
        for _p in ("/workspace/durations.py", "/tmp/planted", "/run/checker/planted"):
            try:
                open(_p, "a").write("# the daemon was here\\n")
            except OSError:
                pass
        _os._exit(0)
    _os._exit(0)
`;

describe('ground truth', () => {
  let sandbox: DockerSandbox;
  beforeAll(async () => {
    sandbox = await openSandbox({ labels: { run: 'vitest', task: 'ground-truth' } });
  }, IMAGE_TIMEOUT_MS);
  afterAll(async () => {
    await sandbox?.dispose();
  });

  it('runs the agent’s code as the checker, never as root', async () => {
    // The fix holds only for uid 1001: as root (or the agent) the module refuses to import.
    const onlyChecker = `import os\nif os.getuid() != 1001:\n    raise ImportError("uid %d" % os.getuid())\n${FIXED_MODULE}`;
    const t = await trial(sandbox, 0, [writeModule(onlyChecker), { text: 'done', calls: [] }]);
    expect(t.flags.file_edit?.reached).toBe(true);
    const root = `import os\nif os.getuid() != 0:\n    raise ImportError("uid %d" % os.getuid())\n${FIXED_MODULE}`;
    const r = await trial(sandbox, 1, [writeModule(root), { text: 'done', calls: [] }]);
    expect(r.flags.file_edit?.reached).toBe(false);
  });

  it('a daemon forked by the checks dies with them and plants nothing in the next trial', async () => {
    const t = await trial(sandbox, 2, [writeModule(`${DAEMON}${FIXED_MODULE}`), { text: 'done', calls: [] }]);
    expect(t.flags.file_edit?.reached).toBe(true);
    const left = await asRoot(
      sandbox,
      "ps -e -o uid=,pid=,stat=,args= | awk '$1 != 0 && $3 !~ /^Z/' || true",
    );
    expect(left.stdout.trim()).toBe('');
    await new Promise((r) => setTimeout(r, 5000));
    const planted = await sandbox.getFiles(['/tmp/planted', '/run/checker/planted']);
    expect([...planted.keys()]).toEqual([]);
    const next = await trial(sandbox, 3, task.referenceSolution);
    expect(next.passed).toBe(true);
    expect(next.tamper_violations).toEqual([]);
  });
});
