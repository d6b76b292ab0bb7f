import type { KeyFamily, Mode } from '@service/contract';
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import { generateApiKey, parseApiKey, prefixFor } from '../auth/api-key-format.js';
import type { Database } from '../db/types.js';
import { ApiError } from '../http/api-error.js';
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
    .values({
      id: keyId,
      tenant_id: tenantId,
      family,
      mode,
      key_hash: sha256Hex(key),
      last_four: keyDisplay(key).lastFour,
      allowed_origins: JSON.stringify(allowedOrigins),
    })
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

/** How a key is shown after creation: its prefix and last four characters (the rest is never stored). */
export function keyDisplay(key: string): { prefix: string; lastFour: string } {
  const parsed = parseApiKey(key);
  return { prefix: parsed ? prefixFor(parsed.family, parsed.mode) : '', lastFour: key.slice(-4) };
}

/** Revokes a key (idempotent; the first revocation time stays). Scoped to a tenant when one is given. */
export async function revokeKey(db: Kysely<Database>, now: RawBuilder<Date>, keyId: string, tenantId?: string) {
  let q = db
    .updateTable('api_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', now) }))
    .where('id', '=', keyId);
  if (tenantId) q = q.where('tenant_id', '=', tenantId);
  return q.returningAll().executeTakeFirst();
}

/** Replaces a key's allowed origins. Scoped to a tenant when one is given. */
export async function setKeyOrigins(db: Kysely<Database>, keyId: string, allowedOrigins: string[], tenantId?: string) {
  let q = db
    .updateTable('api_keys')
    .set({ allowed_origins: JSON.stringify(allowedOrigins) })
    .where('id', '=', keyId);
  if (tenantId) q = q.where('tenant_id', '=', tenantId);
  return q.returningAll().executeTakeFirst();
}

/**
 * Applies webhook settings already validated by the contract's schema (https only, secret >= 24
 * characters): a blank or absent secret keeps the current one, a new one replaces it at once;
 * null removes the webhook. Returns false when the tenant does not exist.
 */
export async function setWebhook(
  db: Kysely<Database>,
  tenantId: string,
  webhook: { url: string; secret?: string | undefined } | null,
): Promise<boolean> {
  const current = await db.selectFrom('tenants').select(['id', 'webhook_secret']).where('id', '=', tenantId).executeTakeFirst();
  if (!current) return false;
  if (webhook === null) {
    await db.updateTable('tenants').set({ webhook_url: null, webhook_secret: null }).where('id', '=', tenantId).execute();
    return true;
  }
  const secret = webhook.secret ? webhook.secret : current.webhook_secret;
  if (!secret) {
    throw new ApiError('invalid_body', 'A webhook secret is required the first time', {
      fieldErrors: { 'webhook.secret': ['required when no secret is set yet'] },
    });
  }
  await db.updateTable('tenants').set({ webhook_url: webhook.url, webhook_secret: secret }).where('id', '=', tenantId).execute();
  return true;
}
