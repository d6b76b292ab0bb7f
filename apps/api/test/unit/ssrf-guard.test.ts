import dns from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { guardedLookup, isPublicAddress, SsrfBlockedError } from '../../src/webhooks/ssrf-guard.js';
import { classify } from '../../src/webhooks/send-webhook.js';

describe('isPublicAddress: every non-public class is refused', () => {
  it.each([
    ['loopback v4', '127.0.0.1'],
    ['loopback v4 (other)', '127.255.0.9'],
    ['loopback v6', '::1'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.31.255.1'],
    ['private 192.168/16', '192.168.0.10'],
    ['link-local / cloud metadata', '169.254.169.254'],
    ['link-local v6', 'fe80::1'],
    ['unique local v6 / AWS metadata v6', 'fd00:ec2::254'],
    ['CGNAT 100.64/10 (Alibaba metadata)', '100.100.100.200'],
    ['multicast v4', '224.0.0.251'],
    ['multicast v6', 'ff02::1'],
    ['reserved 240/4', '240.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['unspecified v4', '0.0.0.0'],
    ['unspecified v6', '::'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['NAT64 embedding', '64:ff9b::a00:1'],
    ['6to4 embedding', '2002:a00:1::'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['benchmarking 198.18/15', '198.18.0.1'],
    ['documentation 192.0.2/24', '192.0.2.1'],
    ['not an address', 'example.com'],
  ])('%s (%s)', (_label, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('public %s is allowed', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('guardedLookup', () => {
  afterEach(() => vi.restoreAllMocks());

  const lookup = (allowPrivate: boolean, options: object = {}) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) =>
      guardedLookup(allowPrivate)('hooks.example.com', options as any, (err: any, address: any, family?: any) =>
        resolve({ err, address, family }),
      ),
    );

  it('resolves once and hands the checked address to the socket (rebinding cannot switch it)', async () => {
    const answers = [[{ address: '93.184.216.34', family: 4 }], [{ address: '127.0.0.1', family: 4 }]];
    const spy = vi
      .spyOn(dns, 'lookup')
      .mockImplementation(((_h: string, _o: unknown, cb: (e: null, a: unknown) => void) => cb(null, answers.shift())) as any);
    const r = await lookup(false);
    expect(r.err).toBeNull();
    expect(r.address).toBe('93.184.216.34');
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('refuses when any resolved address is not public', async () => {
    vi.spyOn(dns, 'lookup').mockImplementation(((_h: string, _o: unknown, cb: (e: null, a: unknown) => void) =>
      cb(null, [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ])) as any);
    const r = await lookup(false);
    expect(r.err).toBeInstanceOf(SsrfBlockedError);
  });

  it('allows private addresses only with the development switch', async () => {
    vi.spyOn(dns, 'lookup').mockImplementation(((_h: string, _o: unknown, cb: (e: null, a: unknown) => void) =>
      cb(null, [{ address: '127.0.0.1', family: 4 }])) as any);
    expect((await lookup(true)).address).toBe('127.0.0.1');
    expect((await lookup(false)).err).toBeInstanceOf(SsrfBlockedError);
  });

  it('answers the all:true form Node 20 uses for happy eyeballs with only the checked address', async () => {
    vi.spyOn(dns, 'lookup').mockImplementation(((_h: string, _o: unknown, cb: (e: null, a: unknown) => void) =>
      cb(null, [{ address: '93.184.216.34', family: 4 }])) as any);
    const r = await lookup(false, { all: true });
    expect(r.address).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });
});

describe('classify', () => {
  const r = (statusCode: number | null, error: string | null = null) => ({ statusCode, error, latencyMs: 1 });
  it('2xx delivered; 5xx, 408, 429, timeouts and connection errors retried; other statuses permanent', () => {
    expect(classify(r(200))).toBe('delivered');
    expect(classify(r(204))).toBe('delivered');
    for (const s of [500, 502, 503, 504, 408, 429]) expect(classify(r(s))).toBe('retry');
    for (const e of ['timeout', 'connect_timeout', 'econnrefused', 'econnreset', 'tls_error']) expect(classify(r(null, e))).toBe('retry');
    for (const s of [301, 302, 307, 400, 401, 403, 404, 410, 422]) expect(classify(r(s))).toBe('permanent');
    expect(classify(r(null, 'ssrf_blocked'))).toBe('permanent');
  });
});
