import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AnyWebhookEvent } from '@service/contract';

export type { AnyWebhookEvent, WebhookEvent, WebhookEventType, WebhookTestEvent } from '@service/contract';

/** Default tolerance between the signature's `t` and now, in seconds (the contract's 300 s). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookVerificationErrorCode =
  'missing_signature' | 'malformed_signature' | 'timestamp_outside_tolerance' | 'signature_mismatch' | 'invalid_payload';

/** Says exactly what was wrong, so a receiver can log it and answer 400. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly code: WebhookVerificationErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyOptions {
  /** The request body exactly as received (Buffer or string); re-serialised JSON will not verify. */
  rawBody: Buffer | string;
  /** The `Service-Signature` header value (`header` and `signatureHeader` are the same option). */
  header?: string | string[] | undefined | null;
  /** @deprecated use `header`. */
  signatureHeader?: string | string[] | undefined | null;
  /**
   * The webhook secret configured for the tenant, or several: the delivery is valid when any
   * matches. During a rotation the receiver lists the old and the new secret, then drops the old.
   */
  secret: string | readonly string[];
  /** Seconds; default 300. */
  toleranceSeconds?: number;
  /** Current time in Unix seconds (tests); default the system clock. */
  now?: number;
}

export interface ParsedSignature {
  timestamp: number;
  signatures: string[];
}

/** Parses `t=<unix>,v1=<hex>[,v1=<hex>...]`; unknown schemes are ignored. */
export function parseSignatureHeader(header: string): ParsedSignature {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === null)
    throw new WebhookVerificationError('malformed_signature', 'Service-Signature has no valid t=<unix seconds> element');
  if (signatures.length === 0)
    throw new WebhookVerificationError('malformed_signature', 'Service-Signature has no v1=<hex HMAC-SHA256> element');
  return { timestamp, signatures };
}

/** The v1 signature of a body: hex HMAC-SHA256 of `<t>.<raw body>` with the secret. */
export function computeSignature(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** Builds a header value, for tests of a receiver. */
export function signatureHeader(secret: string, rawBody: Buffer | string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, rawBody)}`;
}

/**
 * Verifies a delivery and returns its parsed event (switch on `type`: a verification event, or
 * `webhook.test` when the operator sends a test delivery). Accepts the header when any `v1` entry
 * matches (ready for a secret-rotation window), compares in constant time, and rejects a
 * timestamp more than `toleranceSeconds` from now in either direction (replays).
 */
export function verifyWebhook<T = AnyWebhookEvent>(opts: VerifyOptions): T {
  const raw = opts.header ?? opts.signatureHeader;
  const header = Array.isArray(raw) ? raw[0] : raw;
  if (!header) throw new WebhookVerificationError('missing_signature', 'No Service-Signature header');
  const secrets: readonly string[] = typeof opts.secret === 'string' ? [opts.secret] : opts.secret;
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError('verifyWebhook: secret must be a non-empty string or a list of them');
  }
  const { timestamp, signatures } = parseSignatureHeader(header);

  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_outside_tolerance',
      `Signature timestamp is ${Math.abs(now - timestamp)} s from now; tolerance is ${tolerance} s`,
    );
  }

  let match = false;
  for (const secret of secrets) {
    const expected = Buffer.from(computeSignature(secret, timestamp, opts.rawBody), 'hex');
    for (const candidate of signatures) {
      // Every pair is compared (no early exit), each in constant time.
      if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) match = true;
    }
  }
  if (!match) throw new WebhookVerificationError('signature_mismatch', 'No v1 signature matches this body and any given secret');

  try {
    return JSON.parse(typeof opts.rawBody === 'string' ? opts.rawBody : opts.rawBody.toString('utf8')) as T;
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'Body is not valid JSON');
  }
}
