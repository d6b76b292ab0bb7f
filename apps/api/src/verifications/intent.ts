import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import type { Verification } from '../db/types.js';
import { verificationNotFound, invalidBody } from '../http/api-error.js';
import { VERIFICATION_ID_PATTERN } from '@service/contract';
import { safeEqual, sha256Hex } from '../util/ids.js';

export interface LoadedIntent {
  verification: Verification;
  slotsExpired: boolean;
}

/**
 * The upload-token routes' common gate: the intent must exist and be under an hour old (else
 * 404), and the token must be this verification's (compared in constant time).
 */
export async function loadIntentWithToken(deps: AppDeps, verificationId: string, token: string): Promise<LoadedIntent> {
  if (!VERIFICATION_ID_PATTERN.test(verificationId)) throw verificationNotFound();
  const now = deps.clock.now();
  const row = await deps.db
    .selectFrom('verifications')
    .selectAll()
    .select([sql<boolean>`${now} > intent_expires_at`.as('intent_expired'), sql<boolean>`${now} > slots_expire_at`.as('slots_expired')])
    .where('id', '=', verificationId)
    .executeTakeFirst();
  if (!row || row.intent_expired) throw verificationNotFound();
  if (!safeEqual(sha256Hex(token), row.upload_token_hash)) {
    throw invalidBody('invalid_upload_token', 'Upload token does not match this verification');
  }
  const { intent_expired: _i, slots_expired, ...verification } = row;
  return { verification, slotsExpired: slots_expired };
}
