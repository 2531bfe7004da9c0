/**
 * The routes that change what the dashboard shows of the results folder: hide / show a run, and move
 * one to the trash. Both are state-changing (guarded by the server's token and Origin checks) and act
 * only on names the results index knows.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DashboardState } from './dashboard-state.js';
import { BodyError, readJsonBody, sendError, sendJson } from './http-util.js';
import type { ResultIndex } from './result-index.js';
import { moveToTrash, TrashError } from './trash.js';

export interface ManageContext {
  resultsDir: string;
  index: ResultIndex;
  state: DashboardState;
}

export async function postHide(req: IncomingMessage, res: ServerResponse, ctx: ManageContext): Promise<void> {
  let body: { file: string; hidden: boolean };
  try {
    body = await knownFile(req, ctx);
  } catch (err) {
    if (err instanceof BodyError) return sendError(res, err.status, err.message);
    throw err;
  }
  await ctx.state.setHidden(body.file, body.hidden);
  sendJson(res, 200, { file: body.file, hidden: body.hidden });
}

export async function postDelete(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ManageContext,
): Promise<void> {
  let file: string;
  try {
    ({ file } = await knownFile(req, ctx));
  } catch (err) {
    if (err instanceof BodyError) return sendError(res, err.status, err.message);
    throw err;
  }
  let trashed: string;
  try {
    trashed = await moveToTrash(ctx.resultsDir, file);
  } catch (err) {
    if (err instanceof TrashError) return sendError(res, 409, err.message);
    throw err;
  }
  ctx.index.forget(file);
  await ctx.state.setHidden(file, false);
  sendJson(res, 200, { file, trashed });
}

/** The request's `file`, which must be a results file the index has read (never a path from outside). */
async function knownFile(
  req: IncomingMessage,
  ctx: ManageContext,
): Promise<{ file: string; hidden: boolean }> {
  const o = (await readJsonBody(req)) as Record<string, unknown> | null;
  const file = typeof o === 'object' && o !== null ? o.file : undefined;
  const hidden = typeof o === 'object' && o !== null ? o.hidden : undefined;
  if (typeof file !== 'string') throw new BodyError(400, 'file: a results file name is required');
  if (hidden !== undefined && typeof hidden !== 'boolean') throw new BodyError(400, 'hidden: true or false');
  // Refreshes the index first, so a result written since the last page load is known.
  await ctx.index.summaries();
  if (!ctx.index.knows(file)) throw new BodyError(404, 'no such results file');
  return { file, hidden: hidden !== false };
}
