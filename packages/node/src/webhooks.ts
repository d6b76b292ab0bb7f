import { LIMITS, webhookEventSchema, type WebhookEvent } from '@service/contract';
import { createHmac, timingSafeEqual } from 'node:crypto';

export type WebhookVerificationErrorCode =
  'missing_signature' | 'malformed_signature' | 'timestamp_outside_tolerance' | 'signature_mismatch' | 'invalid_payload';

/** Why a delivery was refused; answer it 400 and log the code. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly code: WebhookVerificationErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface WebhookVerifyOptions {
  /** Seconds between the signature's `t` and now; default 300. */
  toleranceSeconds?: number;
  /** Unix seconds (tests); default the system clock. */
  now?: number;
}

const sign = (secret: string, t: number, body: Buffer | string) => createHmac('sha256', secret).update(`${t}.`).update(body).digest();

/**
 * Verifies a delivery (`Service-Signature: t=<unix>,v1=<hex>`) against one secret or several (a
 * rotation window: valid when any matches), in constant time, within the tolerance, and returns
 * the contract's typed event. `rawBody` must be the bytes as received.
 */
export function verify(
  rawBody: Buffer | string,
  signatureHeader: string | string[] | null | undefined,
  secret: string | readonly string[],
  options: WebhookVerifyOptions = {},
): WebhookEvent {
  const header = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
  if (!header) throw new WebhookVerificationError('missing_signature', 'No Service-Signature header');
  const secrets = (typeof secret === 'string' ? [secret] : [...secret]).filter(Boolean);
  if (!secrets.length) throw new TypeError('webhooks.verify: a secret is required');

  let t: number | null = null;
  const candidates: Buffer[] = [];
  for (const part of (header as string).split(',')) {
    const [k, v] = part.split('=', 2).map((s) => s.trim());
    if (k === 't' && v && /^\d{1,12}$/.test(v)) t = Number(v);
    else if (k === 'v1' && v && /^[0-9a-f]{64}$/i.test(v)) candidates.push(Buffer.from(v, 'hex'));
  }
  if (t === null || !candidates.length)
    throw new WebhookVerificationError('malformed_signature', 'Service-Signature is not t=<unix>,v1=<hex>');
  const tolerance = options.toleranceSeconds ?? LIMITS.webhookToleranceSeconds;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > tolerance) {
    throw new WebhookVerificationError('timestamp_outside_tolerance', `Signature timestamp is ${Math.abs(now - t)} s from now`);
  }
  let match = false;
  for (const s of secrets) {
    const expected = sign(s, t, rawBody);
    for (const c of candidates) if (timingSafeEqual(expected, c)) match = true;
  }
  if (!match) throw new WebhookVerificationError('signature_mismatch', 'No v1 signature matches this body and secret');

  let json: unknown;
  try {
    json = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'Body is not valid JSON');
  }
  const parsed = webhookEventSchema.safeParse(json);
  if (!parsed.success) throw new WebhookVerificationError('invalid_payload', 'Body is not a webhook event of the contract');
  return parsed.data;
}
