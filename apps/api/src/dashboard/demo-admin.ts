import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import { randomBase62 } from '../util/ids.js';
import { ensureUserWithPassword } from './users.js';

export interface DemoDashboardUser {
  email: string;
  password: string;
}

const FILE = 'demo-dashboard-user.json';
export const DEMO_ADMIN_EMAIL = 'admin@demo.example';

/**
 * A development start: the demo tenant's dashboard admin, created once with a random password.
 * Only the hash is in the database; the password is kept in DATA_DIR (mode 0600) so later starts
 * can print it again, like the demo keys.
 */
export async function ensureDemoAdmin(db: Kysely<Database>, dataDir: string, tenantId: string): Promise<DemoDashboardUser | null> {
  const file = path.join(dataDir, FILE);
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoDashboardUser;
    const there = await db.selectFrom('dashboard_users').select('id').where('email', '=', saved.email).executeTakeFirst();
    return there ? saved : null;
  }
  const taken = await db.selectFrom('dashboard_users').select('id').where('email', '=', DEMO_ADMIN_EMAIL).executeTakeFirst();
  if (taken) return null;
  const creds = { email: DEMO_ADMIN_EMAIL, password: randomBase62(20) };
  await ensureUserWithPassword(db, tenantId, creds.email, 'admin', creds.password);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(creds, null, 2), { mode: 0o600 });
  return creds;
}
