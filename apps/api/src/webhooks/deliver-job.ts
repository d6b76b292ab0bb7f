import { LIMITS } from '@service/contract';
import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import type { JobHandler } from '../queue/job-queue.js';
import { QUEUES } from '../queue/job-queue.js';
import type { DeliveryJob } from '../queue/queues.js';
import { classify, sendWebhook } from './send-webhook.js';
import { signWebhook } from './signature.js';

export type { DeliveryJob };

export interface DeliveryOptions {
  /** Waits after a failed attempt; the contract's 5 s, 30 s, 2 min, 10 min unless a test shortens them. */
  retryDelaysSeconds: readonly number[];
  timeoutMs?: number;
  connectTimeoutMs?: number;
}

export const CONTRACT_DELIVERY_OPTIONS: DeliveryOptions = { retryDelaysSeconds: LIMITS.webhookRetryDelaysSeconds };

/**
 * One delivery attempt. The event id and body bytes are fixed in the outbox, so every attempt
 * sends the same event. A process that dies mid-attempt leaves the delivery `pending` and the job
 * active; pg-boss expires and retries the job, and the attempt is made again (at least once).
 */
export function deliverWebhookJob(deps: AppDeps, opts: DeliveryOptions): JobHandler<DeliveryJob> {
  return async ({ deliveryId }) => {
    const d = await deps.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .innerJoin('tenants as t', 't.id', 'd.tenant_id')
      .select([
        'd.id',
        'd.status',
        'd.attempts',
        'd.round_attempts',
        'e.id as eventId',
        'e.type',
        'e.body',
        't.webhook_url',
        't.webhook_secret',
      ])
      .where('d.id', '=', deliveryId)
      .executeTakeFirst();
    if (!d || d.status !== 'pending') return;

    const startedAt = new Date(Date.now() + deps.clock.offsetSeconds * 1000);
    const result =
      d.webhook_url && d.webhook_secret
        ? await sendWebhook({
            url: d.webhook_url,
            body: d.body,
            headers: {
              'Content-Type': 'application/json',
              'Service-Signature': signWebhook(d.webhook_secret, Math.floor(startedAt.getTime() / 1000), d.body),
              'Service-Event': d.type,
              'Service-Event-Id': d.eventId,
            },
            allowPrivateNetworks: deps.config.webhookAllowPrivateNetworks,
            ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
            ...(opts.connectTimeoutMs ? { connectTimeoutMs: opts.connectTimeoutMs } : {}),
          })
        : { statusCode: null, error: 'webhook_not_configured', latencyMs: 0 };

    const outcome = d.webhook_url ? classify(result) : 'permanent';
    const roundAttempt = d.round_attempts + 1;
    const delay = opts.retryDelaysSeconds[roundAttempt - 1];
    const next = outcome === 'retry' && delay !== undefined ? delay : null;
    const status = outcome === 'delivered' ? 'delivered' : next !== null ? 'pending' : 'failed';
    deps.metrics.delivery(status === 'pending' ? 'retrying' : status);

    await deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: d.id,
          attempt: d.attempts + 1,
          started_at: startedAt,
          status_code: result.statusCode,
          error: result.error,
          latency_ms: result.latencyMs,
        })
        .execute();
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status,
          attempts: d.attempts + 1,
          round_attempts: roundAttempt,
          last_status_code: result.statusCode,
          last_error: result.error,
          next_attempt_at: next !== null ? sql<Date>`${deps.clock.now()} + make_interval(secs => ${next})` : null,
          updated_at: deps.clock.now(),
        })
        .where('id', '=', d.id)
        .where('status', '=', 'pending')
        .execute();
      if (next !== null) await deps.queue.sendInTransaction(trx, QUEUES.webhook, { deliveryId: d.id }, { startAfterSeconds: next });
    });
    deps.logger.info(
      { deliveryId: d.id, eventType: d.type, attempt: d.attempts + 1, statusCode: result.statusCode, error: result.error, outcome: status },
      'webhook attempt',
    );
  };
}
