/**
 * The dashboard's security rules, in one place: the per-session token, the Host and Origin checks that
 * stop other web pages and DNS rebinding, and confinement of file routes to one folder.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { lstat, realpath, stat } from 'node:fs/promises';
import { isIP } from 'node:net';
import { resolve, sep } from 'node:path';

export const TOKEN_HEADER = 'x-agent-bench-token';

/** A fresh random token per server start; only a page served by this server can read it. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenMatches(expected: string, given: string | string[] | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * True when a Host header names this server. A page reached through some DNS name that resolves to us
 * (DNS rebinding) carries that name, so names are refused unless they are loopback names or the name
 * the server was told to bind; IP literals are accepted only when the server is not loopback-only.
 */
export function hostAllowed(hostHeader: string | undefined, port: number, boundHost: string): boolean {
  if (hostHeader === undefined) return false;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d+))?$/.exec(hostHeader.trim());
  if (match === null) return false;
  const name = (match[1] ?? '').toLowerCase();
  if (Number(match[2] ?? '80') !== port) return false;
  if (isLoopbackHost(name)) return true;
  if (name === boundHost.toLowerCase()) return true;
  return !isLoopbackHost(boundHost) && isIP(name.replace(/^\[|\]$/g, '')) !== 0;
}

/** State-changing requests must come from a page of this very origin (browsers always send Origin on POST). */
export function originMatches(originHeader: string | undefined, hostHeader: string | undefined): boolean {
  return originHeader !== undefined && hostHeader !== undefined && originHeader === `http://${hostHeader}`;
}

/**
 * The real path of `relative` inside root, or null when it is not a regular file strictly inside root:
 * `..` segments, absolute paths, NUL bytes and symlinks that lead outside all give null. The root
 * itself must be a real folder, not a link: a results folder shared with `artifacts -> /home/me`
 * would otherwise serve the whole home folder.
 */
export async function confinedFile(root: string, relative: string): Promise<string | null> {
  if (relative.includes('\0') || relative.split('/').some((seg) => seg === '..')) return null;
  const rootInfo = await lstat(root).catch(() => null);
  if (rootInfo === null || rootInfo.isSymbolicLink() || !rootInfo.isDirectory()) return null;
  const realRoot = await realpath(root).catch(() => null);
  if (realRoot === null) return null;
  const candidate = resolve(realRoot, `.${sep}${relative}`);
  if (!candidate.startsWith(realRoot + sep)) return null;
  const real = await realpath(candidate).catch(() => null);
  if (real === null || !real.startsWith(realRoot + sep)) return null;
  const info = await stat(real).catch(() => null);
  return info?.isFile() === true ? real : null;
}
