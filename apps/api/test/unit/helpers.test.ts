import { parseRole, slotKey } from '@service/contract';
import { describe, expect, it } from 'vitest';
import { generateApiKey, parseApiKey, bearerToken } from '../../src/auth/api-key-format.js';
import { originHostname } from '../../src/auth/allowed-origins.js';
import { loadConfig, ConfigError } from '../../src/config/config.js';
import { forcedOutcome } from '../../src/jobs/forced-verdict.js';
import { signWebhook } from '../../src/webhooks/signature.js';
import { verifyWebhook } from '@service/webhooks';
import { safeEqual } from '../../src/util/ids.js';

describe('API key format', () => {
  it('parses the four prefixes into family and mode', () => {
    expect(parseApiKey('qv_pub_' + 'a'.repeat(16))).toEqual({ family: 'publishable', mode: 'live' });
    expect(parseApiKey('qv_pubt_' + 'a'.repeat(16))).toEqual({ family: 'publishable', mode: 'test' });
    expect(parseApiKey('qv_sec_' + 'a'.repeat(64))).toEqual({ family: 'secret', mode: 'live' });
    expect(parseApiKey('qv_sect_' + 'A_1'.repeat(6))).toEqual({ family: 'secret', mode: 'test' });
  });
  it('refuses lengths outside 16-64 and foreign characters', () => {
    expect(parseApiKey('qv_pub_' + 'a'.repeat(15))).toBeNull();
    expect(parseApiKey('qv_pub_' + 'a'.repeat(65))).toBeNull();
    expect(parseApiKey('qv_pub_' + 'a'.repeat(20) + '!')).toBeNull();
    expect(parseApiKey('qv_pk_' + 'a'.repeat(20))).toBeNull();
  });
  it('generates keys that parse back', () => {
    for (const [family, mode] of [
      ['publishable', 'live'],
      ['publishable', 'test'],
      ['secret', 'live'],
      ['secret', 'test'],
    ] as const) {
      expect(parseApiKey(generateApiKey(family, mode))).toEqual({ family, mode });
    }
  });
  it('reads Bearer tokens only', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('allowed origins: the hostname the gate compares', () => {
  it('is the lowercase hostname, without scheme, port or IPv6 brackets', () => {
    expect(originHostname('https://Shop.Example.com:8443')).toBe('shop.example.com');
    expect(originHostname('https://shop.example.com.evil.com')).toBe('shop.example.com.evil.com');
    expect(originHostname('http://[::1]:3000')).toBe('::1');
  });
  it('is null without an Origin (never checked) and empty when unparsable (on no list)', () => {
    expect(originHostname(undefined)).toBeNull();
    expect(originHostname('')).toBeNull();
    expect(originHostname('null')).toBe('');
  });
});

describe('roles', () => {
  it('recognises document roles, the anchor and step/frame 1-4', () => {
    expect(parseRole('doc-front')).toEqual({ kind: 'document', role: 'doc-front' });
    expect(parseRole('liveness-anchor')?.kind).toBe('anchor');
    expect(parseRole('liveness-4-4')).toEqual({ kind: 'frame', role: 'liveness-4-4', step: 4, frame: 4 });
    for (const bad of ['liveness-5-1', 'liveness-1-0', 'liveness-10-1', 'selfie.jpg', '']) expect(parseRole(bad)).toBeNull();
    expect(slotKey('tn_x', 'vf_y', 'selfie')).toBe('verif/tn_x/vf_y/selfie.jpg');
  });
});

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicBaseUrl: 'http://127.0.0.1:8080',
      databaseUrl: undefined,
      webhookAllowPrivateNetworks: false,
      adminToken: undefined,
    });
  });
  it('names every bad variable', () => {
    try {
      loadConfig({ PORT: '-1', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes', ADMIN_TOKEN: 'short' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const msg = (err as Error).message;
      for (const v of ['PORT', 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'ADMIN_TOKEN']) expect(msg).toContain(v);
    }
  });
  it('reads PIPELINE_CHILDREN as a count of 1-64, unset by default', () => {
    expect(loadConfig({}).pipelineChildren).toBeUndefined();
    expect(loadConfig({ PIPELINE_CHILDREN: '6' }).pipelineChildren).toBe(6);
    for (const bad of ['0', '2.5', 'four', '65']) expect(() => loadConfig({ PIPELINE_CHILDREN: bad })).toThrow(/PIPELINE_CHILDREN/);
  });
  it('reads the pipeline at rest: one child kept after 15 s without a verification, by default', () => {
    expect(loadConfig({})).toMatchObject({ pipelineChildrenAtRest: 1, pipelineRestSeconds: 15 });
    expect(loadConfig({ PIPELINE_CHILDREN_AT_REST: '2', PIPELINE_REST_SECONDS: '60' })).toMatchObject({
      pipelineChildrenAtRest: 2,
      pipelineRestSeconds: 60,
    });
    for (const bad of ['0', '1.5', 'all'])
      expect(() => loadConfig({ PIPELINE_CHILDREN_AT_REST: bad })).toThrow(/PIPELINE_CHILDREN_AT_REST/);
    expect(() => loadConfig({ PIPELINE_REST_SECONDS: '0' })).toThrow(/PIPELINE_REST_SECONDS/);
  });
  it('checks OCR_ENGINE and FACE_RUNTIME at start (auto, native or wasm)', () => {
    expect(() => loadConfig({ OCR_ENGINE: 'native', FACE_RUNTIME: 'wasm' })).not.toThrow();
    expect(() => loadConfig({ FACE_RUNTIME: 'gpu' })).toThrow(/FACE_RUNTIME/);
    expect(() => loadConfig({ OCR_ENGINE: 'fast' })).toThrow(/OCR_ENGINE/);
  });
  it('refuses splitting processes on the embedded database', () => {
    expect(() => loadConfig({ PROCESS_ROLE: 'api' })).toThrow(/DATABASE_URL/);
  });
});

describe('test-mode verdicts', () => {
  it('only in test mode, only the three magic names, any case', () => {
    expect(forcedOutcome({ mode: 'test', submitted_full_name: ' tEsT aPpRoVe ' })?.verdict).toBe('approved');
    expect(forcedOutcome({ mode: 'test', submitted_full_name: 'Test Review' })?.verdict).toBe('review');
    expect(forcedOutcome({ mode: 'test', submitted_full_name: 'Test Reject' })?.verdict).toBe('rejected');
    expect(forcedOutcome({ mode: 'live', submitted_full_name: 'Test Approve' })).toBeNull();
    expect(forcedOutcome({ mode: 'test', submitted_full_name: 'Test Approved' })).toBeNull();
    expect(forcedOutcome({ mode: 'test', submitted_full_name: null })).toBeNull();
  });
});

describe('signing', () => {
  it('the server signature verifies with the integrator package', () => {
    const body = '{"id":"evt_1"}';
    const header = signWebhook('a-secret-of-24-characters!', 1_800_000_000, body);
    expect(verifyWebhook({ rawBody: body, signatureHeader: header, secret: 'a-secret-of-24-characters!', now: 1_800_000_100 })).toEqual({
      id: 'evt_1',
    });
  });
  it('safeEqual compares whole strings', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('random ids', async () => {
  const { randomBase62, newVerificationId, newUploadToken } = await import('../../src/util/ids.js');
  it('have the contract shapes', () => {
    expect(newVerificationId()).toMatch(/^vf_[A-Za-z0-9]{20}$/);
    expect(Buffer.from(newUploadToken(), 'base64url').length).toBe(24);
    expect(randomBase62(64)).toMatch(/^[A-Za-z0-9]{64}$/);
  });
  it('use every base62 character about evenly', () => {
    const counts = new Map<string, number>();
    for (const ch of randomBase62(62_000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(200);
  });
});
