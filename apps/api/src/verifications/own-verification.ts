import { VERIFICATION_ID_PATTERN } from '@service/contract';
import type { Kysely } from 'kysely';
import type { AuthContext } from '../auth/authenticate.js';
import type { Database } from '../db/types.js';
import { verificationNotFound } from '../http/api-error.js';

/**
 * The scope every API-key route reads a verification under: this id, this key's tenant and mode
 * (another tenant's or mode's is not found, as an unknown one is). A malformed id is not found
 * without a query. Select and run on what it returns (a transaction may be passed as `db`).
 */
export function ownVerification(db: Kysely<Database>, auth: Pick<AuthContext, 'tenantId' | 'mode'>, id: string) {
  if (!VERIFICATION_ID_PATTERN.test(id)) throw verificationNotFound();
  return db.selectFrom('verifications').where('id', '=', id).where('tenant_id', '=', auth.tenantId).where('mode', '=', auth.mode);
}
