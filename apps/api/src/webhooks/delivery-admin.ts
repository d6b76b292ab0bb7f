import type { Transaction } from 'kysely';
import type { Database } from '../db/types.js';
import type { AppDeps } from '../app-deps.js';
import { QUEUES } from '../queue/job-queue.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The delivery log of a tenant, newest first, with each attempt's time, outcome and latency. */
export async function listDeliveries(deps: AppDeps, tenantId: string, opts: { status?: string; limit: number }) {
  let q = deps.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'e.type',
      'e.verification_id',
      'd.status',
      'd.attempts',
      'd.last_status_code',
      'd.last_error',
      'd.next_attempt_at',
      'd.created_at',
    ])
    .where('d.tenant_id', '=', tenantId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id')
    .limit(opts.limit);
  if (opts.status) q = q.where('d.status', '=', opts.status as 'pending');
  const rows = await q.execute();
  const attempts = rows.length
    ? await deps.db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where(
          'delivery_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('attempt')
        .execute()
    : [];
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    type: r.type,
    verificationId: r.verification_id,
    status: r.status,
    attempts: r.attempts,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    createdAt: r.created_at.toISOString(),
    attemptLog: attempts
      .filter((a) => a.delivery_id === r.id)
      .map((a) => ({
        attempt: a.attempt,
        at: a.started_at.toISOString(),
        statusCode: a.status_code,
        error: a.error,
        latencyMs: a.latency_ms,
      })),
  }));
}

/** A failed delivery goes back to pending, due now, with a fresh retry schedule. */
export async function requeueDelivery(deps: AppDeps, deliveryId: string) {
  const out = await deps.db.transaction().execute(async (trx) => {
    const d = await trx
      .selectFrom('webhook_deliveries')
      .select(['id', 'status'])
      .where('id', '=', deliveryId)
      .forUpdate()
      .executeTakeFirst();
    if (!d) return null;
    if (d.status === 'failed') {
      await requeueRows(deps, trx, [d.id]);
      return { id: d.id, status: 'pending' as const, requeued: true };
    }
    return { id: d.id, status: d.status, requeued: false };
  });
  if (out?.requeued) deps.queue.notify(QUEUES.webhook);
  return out;
}

/** Every failed delivery of a tenant created since `since` goes back to pending. */
export async function requeueFailedSince(deps: AppDeps, tenantId: string, since: Date): Promise<number> {
  const n = await deps.db.transaction().execute(async (trx) => {
    const ids = (
      await trx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('status', '=', 'failed')
        .where('created_at', '>=', since)
        .forUpdate()
        .execute()
    ).map((r) => r.id);
    await requeueRows(deps, trx, ids);
    return ids.length;
  });
  if (n) deps.queue.notify(QUEUES.webhook);
  return n;
}

async function requeueRows(deps: AppDeps, trx: Transaction<Database>, ids: string[]) {
  if (!ids.length) return;
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: deps.clock.now(), updated_at: deps.clock.now(), round_attempts: 0 })
    .where('id', 'in', ids)
    .execute();
  for (const id of ids) await deps.queue.sendInTransaction(trx, QUEUES.webhook, { deliveryId: id });
}
