import { describe, expect, it } from 'vitest';
import { computeSignature, signatureHeader, verifyWebhook, WebhookVerificationError } from '../src/index.js';

const secret = 'whsec-0123456789abcdefghijklmn';
const body = JSON.stringify({ id: 'evt_00ff', type: 'verification.approved', verdict: 'approved' });
const now = 1_800_000_000;

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.code;
    throw err;
  }
  return 'no error';
}

describe('verifyWebhook', () => {
  it('accepts a genuine delivery and returns the event', () => {
    const event = verifyWebhook({ rawBody: Buffer.from(body), signatureHeader: signatureHeader(secret, body, now), secret, now });
    expect(event).toEqual(JSON.parse(body));
  });

  it('matches the documented construction: HMAC-SHA256 of "<t>.<body>"', async () => {
    const { createHmac } = await import('node:crypto');
    expect(computeSignature(secret, now, body)).toBe(createHmac('sha256', secret).update(`${now}.${body}`).digest('hex'));
  });

  it('rejects a changed body, a wrong secret and a re-serialised body', () => {
    const header = signatureHeader(secret, body, now);
    expect(code(() => verifyWebhook({ rawBody: body.replace('approved', 'rejected'), signatureHeader: header, secret, now }))).toBe(
      'signature_mismatch',
    );
    expect(code(() => verifyWebhook({ rawBody: body, signatureHeader: header, secret: `${secret}x`, now }))).toBe('signature_mismatch');
    expect(code(() => verifyWebhook({ rawBody: JSON.stringify(JSON.parse(body), null, 2), signatureHeader: header, secret, now }))).toBe(
      'signature_mismatch',
    );
  });

  it('enforces the tolerance both ways (default 300 s)', () => {
    expect(code(() => verifyWebhook({ rawBody: body, signatureHeader: signatureHeader(secret, body, now - 301), secret, now }))).toBe(
      'timestamp_outside_tolerance',
    );
    expect(code(() => verifyWebhook({ rawBody: body, signatureHeader: signatureHeader(secret, body, now + 301), secret, now }))).toBe(
      'timestamp_outside_tolerance',
    );
    expect(verifyWebhook({ rawBody: body, signatureHeader: signatureHeader(secret, body, now - 300), secret, now })).toBeTruthy();
    expect(
      verifyWebhook({ rawBody: body, signatureHeader: signatureHeader(secret, body, now - 1000), secret, now, toleranceSeconds: 1000 }),
    ).toBeTruthy();
  });

  it('accepts any of several v1 entries (secret rotation window)', () => {
    const header = `t=${now},v1=${computeSignature('old-secret-0123456789abcdef', now, body)},v1=${computeSignature(secret, now, body)}`;
    expect(verifyWebhook({ rawBody: body, signatureHeader: header, secret, now })).toBeTruthy();
  });

  it('says what is wrong with a missing or malformed header', () => {
    expect(code(() => verifyWebhook({ rawBody: body, signatureHeader: undefined, secret, now }))).toBe('missing_signature');
    expect(code(() => verifyWebhook({ rawBody: body, signatureHeader: 'v1=abc', secret, now }))).toBe('malformed_signature');
    expect(code(() => verifyWebhook({ rawBody: body, signatureHeader: `t=${now}`, secret, now }))).toBe('malformed_signature');
    expect(code(() => verifyWebhook({ rawBody: body, signatureHeader: `t=${now},v0=${'a'.repeat(64)}`, secret, now }))).toBe(
      'malformed_signature',
    );
  });

  it('rejects a signed body that is not JSON', () => {
    expect(code(() => verifyWebhook({ rawBody: 'not json', signatureHeader: signatureHeader(secret, 'not json', now), secret, now }))).toBe(
      'invalid_payload',
    );
  });
});

describe('secret rotation: a list of secrets', () => {
  const oldSecret = 'old-secret-0123456789abcdefgh';
  const newSecret = 'new-secret-0123456789abcdefgh';

  it('accepts a delivery signed with any listed secret, with `header` as the option name', () => {
    for (const signer of [oldSecret, newSecret]) {
      const event = verifyWebhook({ rawBody: body, header: signatureHeader(signer, body, now), secret: [oldSecret, newSecret], now });
      expect(event.id).toBe('evt_00ff');
      expect(event.type).toBe('verification.approved');
    }
  });

  it('rejects a delivery signed with a secret that is not listed', () => {
    const header = signatureHeader('another-secret-0123456789abcd', body, now);
    expect(code(() => verifyWebhook({ rawBody: body, header, secret: [oldSecret, newSecret], now }))).toBe('signature_mismatch');
    // once the old secret is dropped, its signatures no longer verify
    const old = signatureHeader(oldSecret, body, now);
    expect(code(() => verifyWebhook({ rawBody: body, header: old, secret: [newSecret], now }))).toBe('signature_mismatch');
  });

  it('refuses an empty list or an empty secret (a configuration mistake, not a bad delivery)', () => {
    const header = signatureHeader(oldSecret, body, now);
    expect(() => verifyWebhook({ rawBody: body, header, secret: [], now })).toThrow(TypeError);
    expect(() => verifyWebhook({ rawBody: body, header, secret: [oldSecret, ''], now })).toThrow(TypeError);
  });
});
