/**
 * A task's version: a hash of everything that decides what a trial means, so results of a changed
 * task are never compared with old ones. A TypeScript task's check code is not hashable in a stable
 * way (src and dist differ), so a change to a check must also change its flag's description, which
 * is hashed. A folder task states its checks as data and its flag code as source (its source's
 * `checks` digest): those are hashed instead, and descriptions are not.
 */

import { canonicalJson, sha256 } from '../util/hash.js';
import { ignoredPaths } from './ignored.js';
import { inContainer, type Task, type WorkspaceParts } from './types.js';

export function taskVersion(task: Task): string {
  const file = (f: { path: string; content: string; mode?: number }) => ({
    path: f.path,
    content: f.content,
    mode: f.mode ?? 0o644,
  });
  const source = task.source ?? { folders: [] };
  // A task without a workspace (a dialogue) is hashed as an empty one, so its version stays what it was.
  const ws: Pick<
    WorkspaceParts,
    | 'allowedWrites'
    | 'ignored'
    | 'files'
    | 'setupCommands'
    | 'hiddenFiles'
    | 'watchToolCaches'
    | 'mcpServers'
    | 'tools'
  > = inContainer(task) ? task : { allowedWrites: [], ignored: [], files: [] };
  const services = task.environment.place === 'container' ? task.environment.services : undefined;
  return sha256(
    canonicalJson({
      id: task.id,
      prompt: task.prompt,
      maxTurns: task.maxTurns,
      allowedWrites: ws.allowedWrites,
      ignored: ignoredPaths(ws),
      files: ws.files.map(file),
      setupCommands: ws.setupCommands ?? [],
      hiddenFiles: (ws.hiddenFiles ?? []).map(file),
      // Absent for tasks without a skill, so their versions stay what they were.
      skillDigest: source.skill,
      flags: task.flags.map((f) => ({
        id: f.id,
        kind: f.kind,
        weight: f.weight ?? 1,
        ...(source.checks === undefined ? { description: f.description } : {}),
      })),
      checks: source.checks,
      // Absent for tasks without services, so their versions stay what they were.
      services: services?.services.map(({ image, ...s }) => ({
        ...s,
        image:
          image.kind === 'prebuilt'
            ? image.image
            : { context: image.contextDigest, dockerfile: image.dockerfile, baseImage: image.baseImage },
      })),
      // A variant task's generator (absent for other tasks, so their versions stay what they were).
      variants: source.variants,
      // Absent for other tasks, so their versions stay what they were.
      dialogue: source.dialogue,
      // Absent without MCP servers, so other tasks' versions stay what they were.
      mcpServers: ws.mcpServers,
      tools: ws.tools,
    }),
  ).slice(0, 16);
}
