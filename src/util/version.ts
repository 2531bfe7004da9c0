import { readFileSync } from 'node:fs';
import { packageRoot } from './package-root.js';

/** The harness version recorded in every result (package.json's version). */
export const HARNESS_VERSION: string = (
  JSON.parse(readFileSync(`${packageRoot()}/package.json`, 'utf8')) as { version: string }
).version;
