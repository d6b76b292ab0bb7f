import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file is evaluation/{src,dist}/paths). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The built service's entry point, as `npm start` runs it. */
export const API_MAIN = path.join(path.dirname(createRequire(import.meta.url).resolve('@service/api/package.json')), 'dist', 'main.js');
