import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A check-set photo kept for tests byte for byte (`test/fixtures/check-set`, with its provenance):
 * `checkSetPhoto('eighth-x080', 'front')` reads `eighth-x080.front.jpg`.
 */
export function checkSetPhoto(name: string, side: 'front' | 'selfie'): Buffer {
  return fs.readFileSync(fileURLToPath(new URL(`../fixtures/check-set/${name}.${side}.jpg`, import.meta.url)));
}
