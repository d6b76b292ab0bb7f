import { HEADERS, WEBHOOK_TEST_EVENT_TYPE, type WebhookTestEvent } from '@service/contract';
import type { AppDeps } from '../app-deps.js';
import { newEventId } from '../util/ids.js';
import { sendWebhook, type SendResult } from './send-webhook.js';
import { signWebhook } from './signature.js';

export type TestDeliveryResult = SendResult & { eventId: string; delivered: boolean };

/**
 * Sends one signed `webhook.test` event to the tenant's endpoint now, outside the queue and the
 * delivery log, so an operator sees at once whether the receiver verifies it (2xx) or not.
 * Null when the tenant has no webhook configured.
 */
export async function sendTestEvent(deps: AppDeps, tenantId: string): Promise<TestDeliveryResult | null> {
  const t = await deps.db.selectFrom('tenants').select(['webhook_url', 'webhook_secret']).where('id', '=', tenantId).executeTakeFirst();
  if (!t?.webhook_url || !t.webhook_secret) return null;
  const sentAt = new Date(Date.now() + deps.clock.offsetSeconds * 1000);
  const event: WebhookTestEvent = { id: newEventId(), type: WEBHOOK_TEST_EVENT_TYPE, createdAt: sentAt.toISOString(), mode: 'test' };
  const body = JSON.stringify(event);
  const result = await sendWebhook({
    url: t.webhook_url,
    body,
    headers: {
      'Content-Type': 'application/json',
      [HEADERS.signature]: signWebhook(t.webhook_secret, Math.floor(sentAt.getTime() / 1000), body),
      [HEADERS.event]: event.type,
      [HEADERS.eventId]: event.id,
    },
    allowPrivateNetworks: deps.config.webhookAllowPrivateNetworks,
  });
  const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  return { ...result, eventId: event.id, delivered };
}
