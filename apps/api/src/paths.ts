import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The API's package folder (apps/api), from its sources (tests) or its build alike: this file is src/paths.ts or dist/paths.js. */
export const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
