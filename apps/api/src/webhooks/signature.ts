import { createHmac } from 'node:crypto';

/** `Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (decisions.md, Webhooks). */
export function signWebhook(secret: string, timestamp: number, rawBody: string | Buffer): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}
