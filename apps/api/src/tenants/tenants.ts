import type { KeyFamily, Mode } from '@service/contract';
import type { Kysely, Transaction } from 'kysely';
import { generateApiKey } from '../auth/api-key-format.js';
import type { Database } from '../db/types.js';
import { newKeyId, newTenantId, sha256Hex } from '../util/ids.js';

export interface IssuedKey {
  keyId: string;
  key: string;
  family: KeyFamily;
  mode: Mode;
  allowedOrigins: string[];
}

/** Creates a key; only its hash is stored, the string is returned once. */
export async function issueKey(
  db: Kysely<Database> | Transaction<Database>,
  tenantId: string,
  family: KeyFamily,
  mode: Mode,
  allowedOrigins: string[] = [],
): Promise<IssuedKey> {
  const key = generateApiKey(family, mode);
  const keyId = newKeyId();
  await db
    .insertInto('api_keys')
    .values({ id: keyId, tenant_id: tenantId, family, mode, key_hash: sha256Hex(key), allowed_origins: JSON.stringify(allowedOrigins) })
    .execute();
  return { keyId, key, family, mode, allowedOrigins };
}

export interface CreatedTenant {
  tenantId: string;
  name: string;
  credits: number;
  keys: { publishable: string; secret: string; publishableTest: string; secretTest: string };
}

/** A tenant with one key of each family and mode. */
export async function createTenant(db: Kysely<Database>, name: string, credits: number): Promise<CreatedTenant> {
  return db.transaction().execute(async (trx) => {
    const tenantId = newTenantId();
    await trx.insertInto('tenants').values({ id: tenantId, name, credits, webhook_url: null, webhook_secret: null }).execute();
    const publishable = await issueKey(trx, tenantId, 'publishable', 'live');
    const secret = await issueKey(trx, tenantId, 'secret', 'live');
    const publishableTest = await issueKey(trx, tenantId, 'publishable', 'test');
    const secretTest = await issueKey(trx, tenantId, 'secret', 'test');
    return {
      tenantId,
      name,
      credits,
      keys: { publishable: publishable.key, secret: secret.key, publishableTest: publishableTest.key, secretTest: secretTest.key },
    };
  });
}
