import type { FieldsExtracted, Scores, Verdict, WebhookEvent, WebhookEventType } from '@service/contract';
import type { Transaction } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import type { Database, Verification } from '../db/types.js';
import { QUEUES } from '../queue/job-queue.js';
import { newDeliveryId, newEventId } from '../util/ids.js';

export const EVENT_TYPE_BY_VERDICT: Record<Verdict, WebhookEventType> = {
  approved: 'verification.approved',
  rejected: 'verification.rejected',
  review: 'verification.needs_review',
};

/**
 * Writes an event in the caller's transaction (the outbox) and, when the tenant has a webhook,
 * its delivery and the job that sends it: a rolled-back change sends nothing, a committed one
 * is never lost. The body is serialised once; those exact bytes are signed and sent.
 */
export async function recordEvent(
  deps: AppDeps,
  trx: Transaction<Database>,
  v: Verification,
  type: WebhookEventType,
  verdict: Verdict | null,
): Promise<{ eventId: string; deliveryId: string | null }> {
  const eventId = newEventId();
  const createdAt = new Date(Date.now() + deps.clock.offsetSeconds * 1000).toISOString();
  const event: WebhookEvent = {
    id: eventId,
    type,
    createdAt,
    verificationId: v.id,
    verdict,
    mode: v.mode,
    ...(v.user_ref ? { userRef: v.user_ref } : {}),
    scores: (v.scores as Scores | null) ?? null,
    fieldsExtracted: (v.fields_extracted as FieldsExtracted | null) ?? null,
  };
  await trx
    .insertInto('webhook_events')
    .values({ id: eventId, tenant_id: v.tenant_id, verification_id: v.id, type, body: JSON.stringify(event), created_at: createdAt })
    .execute();

  const tenant = await trx.selectFrom('tenants').select('webhook_url').where('id', '=', v.tenant_id).executeTakeFirst();
  if (!tenant?.webhook_url) return { eventId, deliveryId: null };
  const deliveryId = newDeliveryId();
  const now = deps.clock.now();
  await trx
    .insertInto('webhook_deliveries')
    .values({
      id: deliveryId,
      event_id: eventId,
      tenant_id: v.tenant_id,
      status: 'pending',
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await deps.queue.sendInTransaction(trx, QUEUES.webhook, { deliveryId });
  return { eventId, deliveryId };
}
