import { describe, expect, it } from 'vitest';
import {
  API_KEY_PATTERN,
  ERROR_STATUS,
  initRequestSchema,
  RETRYABLE_ERROR_CODES,
  submitRequestSchema,
  webhookConfigSchema,
  webhookConfigSchemaFor,
  webhookEventSchema,
  widgetErrorDetailSchema,
} from '../src/index.js';

describe('contract schemas', () => {
  it('init drops unknown keys and defaults activeLiveness to false', () => {
    expect(initRequestSchema.parse({ tenantId: 'x', metadata: {} })).toEqual({ activeLiveness: false });
  });
  it('init enforces lengths, enum and country form', () => {
    expect(initRequestSchema.safeParse({ userRef: 'x'.repeat(129) }).success).toBe(false);
    expect(initRequestSchema.safeParse({ submittedFullName: 'x'.repeat(256) }).success).toBe(false);
    expect(initRequestSchema.safeParse({ documentType: 'id_card' }).success).toBe(false);
    expect(initRequestSchema.safeParse({ country: 'de' }).success).toBe(false);
    expect(initRequestSchema.safeParse({ country: 'DE', documentType: 'dni' }).success).toBe(true);
  });
  it('submit requires the id pattern, docFront and selfie', () => {
    expect(submitRequestSchema.safeParse({ verificationId: 'vf_' + 'a'.repeat(16), keys: { docFront: 'a', selfie: 'b' } }).success).toBe(
      true,
    );
    expect(submitRequestSchema.safeParse({ verificationId: 'vf_' + 'a'.repeat(25), keys: { docFront: 'a', selfie: 'b' } }).success).toBe(
      false,
    );
    expect(submitRequestSchema.safeParse({ verificationId: 'vf_' + 'a'.repeat(16), keys: { docFront: 'a' } }).success).toBe(false);
  });
  it('error statuses and the retryable set follow the interface', () => {
    expect(ERROR_STATUS).toMatchObject({
      invalid_body: 400,
      missing_api_key: 401,
      insufficient_credits: 402,
      origin_not_allowed: 403,
      verification_not_found: 404,
      rate_limited: 429,
      backend_unavailable: 503,
    });
    expect([...RETRYABLE_ERROR_CODES].sort()).toEqual(['backend_unavailable', 'internal_error', 'rate_limited']);
    expect(Object.keys(ERROR_STATUS)).not.toContain('unauthorized');
  });
  it('key pattern', () => {
    expect(API_KEY_PATTERN.test('qv_sect_' + 'a'.repeat(16))).toBe(true);
    expect(API_KEY_PATTERN.test('qv_sec_' + 'a'.repeat(15))).toBe(false);
  });
  it('webhook config: https and a 24-character secret', () => {
    expect(webhookConfigSchema.safeParse({ url: 'http://a.example', secret: 'x'.repeat(24) }).success).toBe(false);
    expect(webhookConfigSchema.safeParse({ url: 'https://a.example', secret: 'x'.repeat(23) }).success).toBe(false);
    expect(webhookConfigSchema.safeParse({ url: 'https://a.example', secret: 'x'.repeat(24) }).success).toBe(true);
    expect(webhookConfigSchema.safeParse({ url: 'http://localhost:4000/hook', secret: 'x'.repeat(24) }).success).toBe(false);
  });

  it('webhook URL in development: http:// only to a loopback host written literally', () => {
    const dev = webhookConfigSchemaFor({ allowLoopbackHttp: true });
    const ok = (url: string) => dev.safeParse({ url, secret: 'x'.repeat(24) }).success;
    expect(ok('http://localhost:4000/hook')).toBe(true);
    expect(ok('http://127.0.0.1:4000/hook')).toBe(true);
    expect(ok('http://127.1.2.3/hook')).toBe(true);
    expect(ok('http://[::1]:4000/hook')).toBe(true);
    expect(ok('https://a.example/hook')).toBe(true);
    expect(ok('http://a.example/hook')).toBe(false);
    expect(ok('http://10.0.0.5/hook')).toBe(false);
    expect(ok('http://192.168.1.2/hook')).toBe(false);
    expect(ok('http://localhost.a.example/hook')).toBe(false);
    expect(ok('http://127.0.0.1.nip.io/hook')).toBe(false);
    expect(ok('ftp://localhost/hook')).toBe(false);
  });
  it('webhook body: no status, verdict nullable, evt_ id', () => {
    const base = {
      id: 'evt_ab12',
      type: 'verification.failed',
      createdAt: '2026-01-01T00:00:00.000Z',
      verificationId: 'vf_' + 'a'.repeat(20),
      verdict: null,
      mode: 'live',
      scores: null,
      fieldsExtracted: null,
    };
    expect(webhookEventSchema.safeParse(base).success).toBe(true);
    expect(webhookEventSchema.safeParse({ ...base, id: 'evt_XYZ' }).success).toBe(false);
  });
  it('widget error detail codes', () => {
    expect(widgetErrorDetailSchema.safeParse({ code: 'user_cancelled', message: 'x' }).success).toBe(true);
    expect(widgetErrorDetailSchema.safeParse({ code: 'unauthorized', message: 'x' }).success).toBe(false);
  });
});
