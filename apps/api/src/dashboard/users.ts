import { DASHBOARD_LIMITS, type CreateUserRequest } from '@service/contract';
import { sql, type Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../app-deps.js';
import type { Database } from '../db/types.js';
import { ApiError, invalidBody } from '../http/api-error.js';
import { randomBase62, sha256Hex } from '../util/ids.js';
import { audit } from './audit.js';
import { hashPassword } from './passwords.js';

export const newUserId = () => `usr_${randomBase62(16)}`;

/**
 * The operator creates a tenant's user. With a password the user can sign in at once; without,
 * the single-use invite URL (valid 24 h) lets the user choose one. Only the invite's hash is kept.
 */
export async function createUser(deps: AppDeps, tenantId: string, input: CreateUserRequest) {
  const tenant = await deps.db.selectFrom('tenants').select('id').where('id', '=', tenantId).executeTakeFirst();
  if (!tenant) throw new ApiError('not_found', 'Tenant not found');
  const exists = await deps.db.selectFrom('dashboard_users').select('id').where('email', '=', input.email).executeTakeFirst();
  if (exists) throw new ApiError('user_exists', 'A dashboard user with this email exists');
  const userId = newUserId();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const invite = input.password ? null : randomBytes(32).toString('base64url');
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('dashboard_users')
      .values({ id: userId, tenant_id: tenantId, email: input.email, role: input.role, password_hash: passwordHash })
      .execute();
    if (invite) {
      await trx
        .insertInto('dashboard_invites')
        .values({
          token_hash: sha256Hex(invite),
          user_id: userId,
          expires_at: sql<Date>`${deps.clock.now()} + make_interval(secs => ${DASHBOARD_LIMITS.inviteSeconds})`,
        })
        .execute();
    }
  });
  return {
    userId,
    email: input.email,
    role: input.role,
    inviteUrl: invite ? `${deps.config.publicBaseUrl}/dashboard/invite#token=${invite}` : null,
  };
}

/** Sets the password of an invited user: the invite works once, within 24 h. */
export async function acceptInvite(deps: AppDeps, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const invite = await trx
      .updateTable('dashboard_invites')
      .set({ used_at: now })
      .where('token_hash', '=', sha256Hex(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!invite) throw invalidBody('invite_invalid', 'This invite link is unknown, used or expired');
    const user = await trx
      .updateTable('dashboard_users')
      .set({ password_hash: passwordHash })
      .where('id', '=', invite.user_id)
      .returning(['id', 'email', 'tenant_id'])
      .executeTakeFirstOrThrow();
    await audit(deps, { userId: user.id, email: user.email, tenantId: user.tenant_id }, 'user.invite_accepted', user.id, null, trx);
  });
}

/** A user with a known password, for the demo start (no invite). */
export async function ensureUserWithPassword(
  db: Kysely<Database>,
  tenantId: string,
  email: string,
  role: 'admin' | 'reviewer',
  password: string,
) {
  const existing = await db.selectFrom('dashboard_users').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) return existing.id;
  const id = newUserId();
  await db
    .insertInto('dashboard_users')
    .values({ id, tenant_id: tenantId, email, role, password_hash: await hashPassword(password) })
    .execute();
  return id;
}
