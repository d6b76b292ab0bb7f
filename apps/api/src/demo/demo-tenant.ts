import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import { createTenant } from '../tenants/tenants.js';
import { randomBase62 } from '../util/ids.js';

export interface DemoCredentials {
  tenantId: string;
  adminToken: string;
  keys: { publishable: string; secret: string; publishableTest: string; secretTest: string };
}

const FILE = 'demo-credentials.json';

/**
 * A development start: on a database with no tenant, create a demo tenant (100 credits) and, if
 * ADMIN_TOKEN is unset, an admin token. Key strings exist only at creation, so they are kept in
 * DATA_DIR/demo-credentials.json (mode 0600) to be printed again on later starts.
 */
export async function ensureDemoTenant(
  db: Kysely<Database>,
  dataDir: string,
  adminToken: string | undefined,
): Promise<DemoCredentials | null> {
  const file = path.join(dataDir, FILE);
  const anyTenant = await db.selectFrom('tenants').select('id').limit(1).executeTakeFirst();
  if (anyTenant) {
    if (!fs.existsSync(file)) return null;
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoCredentials;
    const stillThere = await db.selectFrom('tenants').select('id').where('id', '=', saved.tenantId).executeTakeFirst();
    return stillThere ? { ...saved, adminToken: adminToken ?? saved.adminToken } : null;
  }
  const tenant = await createTenant(db, 'Demo', 100);
  const creds: DemoCredentials = { tenantId: tenant.tenantId, adminToken: adminToken ?? `adm_${randomBase62(40)}`, keys: tenant.keys };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(creds, null, 2), { mode: 0o600 });
  return creds;
}

/** The admin token a development start should use when ADMIN_TOKEN is unset. */
export function savedAdminToken(dataDir: string): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dataDir, FILE), 'utf8')) as DemoCredentials).adminToken;
  } catch {
    return undefined;
  }
}
