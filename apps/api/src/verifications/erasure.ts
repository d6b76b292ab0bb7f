import { verificationPrefix, type FieldsExtracted } from '@service/contract';
import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import type { Verification } from '../db/types.js';
import { NO_FIELDS } from '../pipeline/pipeline.js';

type Deps = Pick<AppDeps, 'db' | 'blobs' | 'clock'>;

/**
 * Deletes one verification's images and its data key (crypto-shredding: a copy in a backup no
 * longer opens). Idempotent: a second run finds nothing and records nothing new.
 */
export async function deleteImages(deps: Deps, v: Pick<Verification, 'id' | 'tenant_id'>): Promise<void> {
  await deps.blobs.deletePrefix(verificationPrefix(v.tenant_id, v.id));
  await deps.db
    .updateTable('verifications')
    .set({ images_deleted_at: deps.clock.now() })
    .where('id', '=', v.id)
    .where('images_deleted_at', 'is', null)
    .execute();
}

/**
 * Erases one verification's personal data: the typed name, the extracted fields (every field null,
 * as its later webhooks carry them) and the reviewer's note, and the same fields in the bodies of
 * its stored webhook events (a delivery still to come carries the erased fields). The result
 * record stays.
 */
export async function erasePersonalData(deps: Pick<AppDeps, 'db' | 'clock'>, verificationId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('verifications')
      .set({
        submitted_full_name: null,
        review_note: null,
        fields_extracted: sql`case when fields_extracted is null then null else ${JSON.stringify(NO_FIELDS)}::jsonb end`,
        personal_data_erased_at: sql`coalesce(personal_data_erased_at, ${deps.clock.now()})`,
      })
      .where('id', '=', verificationId)
      .execute();
    const events = await trx.selectFrom('webhook_events').select(['id', 'body']).where('verification_id', '=', verificationId).execute();
    for (const e of events) {
      const body = JSON.parse(e.body) as { fieldsExtracted?: FieldsExtracted | null };
      if (!body.fieldsExtracted || Object.values(body.fieldsExtracted).every((f) => f === null)) continue;
      await trx
        .updateTable('webhook_events')
        .set({ body: JSON.stringify({ ...body, fieldsExtracted: NO_FIELDS }) })
        .where('id', '=', e.id)
        .execute();
    }
  });
}

/**
 * `POST /v1/verify/:id/redact`: images and personal data erased at once; the first request's time
 * is kept, so a repeated request answers the same `redactedAt`. Marked first: should the store be
 * unreachable (503), the retention job finishes the erasure of a redacted verification.
 */
export async function redactVerification(deps: Deps, v: Pick<Verification, 'id' | 'tenant_id'>): Promise<Date> {
  // An intent not yet submitted ends too: its slots take no new image, and it cannot be submitted.
  const row = await deps.db
    .updateTable('verifications')
    .set({
      redacted_at: sql`coalesce(redacted_at, ${deps.clock.now()})`,
      slots_expire_at: sql`case when status is null then least(slots_expire_at, ${deps.clock.now()}) else slots_expire_at end`,
      intent_expires_at: sql`case when status is null then least(intent_expires_at, ${deps.clock.now()}) else intent_expires_at end`,
    })
    .where('id', '=', v.id)
    .returning('redacted_at')
    .executeTakeFirstOrThrow();
  await deleteImages(deps, v);
  await erasePersonalData(deps, v.id);
  return row.redacted_at!;
}
