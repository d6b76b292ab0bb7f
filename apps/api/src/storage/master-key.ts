import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../http/logger.js';
import type { Config } from '../config/config.js';
import { KEY_BYTES } from './blob-encryption.js';

/** Where a single process keeps its generated key when `BLOB_ENCRYPTION_KEY` is unset. */
export const GENERATED_KEY_FILE = 'blob-encryption.key';

/**
 * The master key that wraps image data keys: `BLOB_ENCRYPTION_KEY`, or (one process, which config
 * checks) a key generated once under DATA_DIR, readable by its owner only, with a warning: it sits
 * beside the images it protects, so a production deployment sets its own.
 */
export function resolveMasterKey(config: Config, logger: Logger): Buffer {
  if (config.blobEncryptionKey) return config.blobEncryptionKey;
  const file = path.join(config.dataDir, GENERATED_KEY_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(KEY_BYTES).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${file} does not hold a 32-byte base64 key`);
  logger.warn({ file }, 'BLOB_ENCRYPTION_KEY is unset: images are encrypted with a key kept under DATA_DIR; set your own in production');
  return key;
}
