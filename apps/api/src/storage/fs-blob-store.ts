import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from './blob-store.js';

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/** Blobs as files under one directory; writes are atomic (temp file + rename). */
export class FsBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key) || key.split('/').some((p) => p === '..' || p === '.')) {
      throw new Error('Invalid blob key');
    }
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(tmp, bytes);
    await fs.rename(tmp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fs.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fs.rm(this.pathOf(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }

  async ready(): Promise<boolean> {
    try {
      await fs.mkdir(this.root, { recursive: true });
      await fs.access(this.root, constants.R_OK | constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }
}
