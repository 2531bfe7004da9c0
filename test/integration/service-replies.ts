/** Scripted replies of the services tests: a model that talks to a task's sidecars from its shell. */
import type { ScriptedReply } from '../helpers/scripted-server.js';

export const exec = (command: string): ScriptedReply => ({
  calls: [{ name: 'execute_command', arguments: { command } }],
});
export const write = (path: string, content: string): ScriptedReply => ({
  calls: [{ name: 'write_file', arguments: { path, content } }],
});
export const done: ScriptedReply = { text: 'Done.' };
/** A one-line Python fetch of `url` (the sandbox image has no curl), printing the body or the error. */
export const fetch = (url: string): string =>
  `python3 -c "import urllib.request as u, sys
try: print(u.urlopen('${url}', timeout=3).read().decode())
except Exception as e: print('unreachable:', e); sys.exit(7)"`;
