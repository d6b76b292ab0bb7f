import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_MAIN } from '../paths.js';
import { createScratchDatabase } from './scratch-database.js';
import { startListening } from './spawn-service.js';

export interface ScratchService {
  url: string;
  child: ChildProcess;
  databaseUrl: string;
}

/**
 * The built service on a scratch PostgreSQL database of its own (`prefix_<pid>`) and a temporary
 * data directory, for one benchmark: `fn` gets it listening; afterwards the service is stopped
 * (SIGTERM, awaited) and the database and directory removed, whatever `fn` did.
 */
export async function withScratchService<T>(
  baseUrl: string,
  prefix: string,
  env: Record<string, string>,
  fn: (s: ScratchService) => Promise<T>,
): Promise<T> {
  const scratch = await createScratchDatabase(baseUrl, prefix);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-${prefix}-`));
  try {
    const { child, url } = await startListening(API_MAIN, { DATABASE_URL: scratch.url, DATA_DIR: dataDir, PORT: '0', ...env });
    try {
      return await fn({ url, child, databaseUrl: scratch.url });
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  } finally {
    await scratch.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
