/**
 * Stubs: a heavy script of the skill (image generation, rendering) replaced, for the run, by a
 * recorder written in the same language, so it runs however the agent starts it (`sh x.sh`,
 * `./x.sh`, `python3 x.py`, `node x.js`). The recorder creates the listed outputs, prints the
 * canned stdout and exits with the canned code. It writes no record of its own: the run is the
 * process trace's (a process that ran the script's path, with the argv it received), which the
 * agent cannot write; a record the agent could write would prove nothing.
 *
 * Output paths: a fixed `path` is relative to /workspace, like every manifest path; an `arg`
 * output is the value of that option (`--out x.png` or `--out=x.png`), relative to the directory
 * the script ran in, as the real script would take it. A missing option makes the stub fail (exit
 * 2) as the real script would. The workspace is found from the recorder's own real path (it sits
 * at /workspace/skill/<script>), so the same stub also works in a local copy of the workspace.
 * The shell recorder runs Python as a child, not by `exec`: the process that ran the script stays
 * the script's in the trace.
 */
export type StubLanguage = 'sh' | 'python' | 'node';

interface StubOutput {
  path: string | null;
  arg: string | null;
  content: Buffer;
}

export interface StubSpec {
  /** Relative to the skill folder. */
  script: string;
  language: StubLanguage;
  outputs: StubOutput[];
  stdout: string;
  exitCode: number;
  /** The argv the real script accepts (manifest `usage`); absent: any. */
  usage?: readonly string[];
}

/** Part of the staged copy's name: a change to the recorders must not reuse an old copy. */
export const RECORDER_VERSION = '5';

/** The language a stub of this script must be written in, or null when it cannot be stubbed. */
export function stubLanguage(script: string, firstLine: string): StubLanguage | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(script)?.[1];
  if (ext === undefined) {
    if (/^#!.*python/.test(firstLine)) return 'python';
    if (/^#!.*node/.test(firstLine)) return 'node';
    return 'sh';
  }
  if (['sh', 'bash', 'ksh', 'zsh'].includes(ext)) return 'sh';
  if (ext === 'py') return 'python';
  if (['js', 'mjs', 'cjs'].includes(ext)) return 'node';
  return null;
}

/** The recorder's source, to be written in place of the script. */
export function recorderSource(stub: StubSpec): string {
  const note = `agent-bench stub of ${stub.script}: creates its outputs, prints its canned output.`;
  switch (stub.language) {
    case 'sh':
      return `#!/bin/sh\n# ${note}\npython3 -I - "$0" "$@" <<'AGENT_BENCH_STUB'\n${recorderPython(stub, 1)}AGENT_BENCH_STUB\nexit $?\n`;
    case 'python':
      return `#!/usr/bin/env python3\n# ${note}\n${recorderPython(stub, 0)}`;
    case 'node': {
      const argv = `['-I', '-c', ${JSON.stringify(recorderPython(stub, 1))}, process.argv[1], ...process.argv.slice(2)]`;
      return `#!/usr/bin/env node\n// ${note}\nimport('node:child_process').then(({ spawnSync }) => {\n  const r = spawnSync('python3', ${argv}, { stdio: 'inherit' });\n  process.exit(r.status ?? 1);\n});\n`;
    }
  }
}

/** `self`: where the script's own path is in sys.argv (0 when Python runs it, 1 when handed on). */
function recorderPython(stub: StubSpec, self: 0 | 1): string {
  const spec = {
    script: stub.script,
    depth: stub.script.split('/').length,
    outputs: stub.outputs.map((o) => ({ path: o.path, arg: o.arg, content: o.content.toString('base64') })),
    stdout: stub.stdout,
    exit_code: stub.exitCode,
    usage: stub.usage ?? null,
  };
  const encoded = Buffer.from(JSON.stringify(spec)).toString('base64');
  return `import base64, json, os, sys
SPEC = json.loads(base64.b64decode("${encoded}").decode())
args = sys.argv[${self + 1}:]
root = os.path.realpath(sys.argv[${self}])
for _ in range(SPEC["depth"] + 1):
    root = os.path.dirname(root)
cwd = os.getcwd()
def accepted(words, usage):
    if not usage:
        return not words
    head = usage[0]
    if head == "...":
        return True
    if not words:
        return False
    if head.isupper() and head.replace("_", "").isalnum():
        ok = words[0] != "" and not words[0].startswith("-")
    else:
        ok = words[0] == head
    return ok and accepted(words[1:], usage[1:])
if SPEC["usage"] is not None and not accepted(args, SPEC["usage"]):
    sys.stderr.write("usage: %s %s\\n" % (SPEC["script"], " ".join(SPEC["usage"])))
    sys.exit(2)
def value(opt):
    for i, a in enumerate(args):
        if a == opt and i + 1 < len(args):
            return args[i + 1]
        if a.startswith(opt + "="):
            return a[len(opt) + 1:]
    return None
for out in SPEC["outputs"]:
    target = os.path.join(root, out["path"]) if out["path"] is not None else value(out["arg"])
    if target is None:
        sys.stderr.write("%s: missing %s\\n" % (SPEC["script"], out["arg"]))
        sys.exit(2)
    target = os.path.join(cwd, target)
    if os.path.dirname(target):
        os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as f:
        f.write(base64.b64decode(out["content"]))
sys.stdout.write(SPEC["stdout"])
sys.stdout.flush()
sys.exit(SPEC["exit_code"])
`;
}
