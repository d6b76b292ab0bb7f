import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  BlobDecryptionError,
  isSealed,
  masterKeyId,
  newDataKey,
  openBlob,
  sealBlob,
  unwrapDataKey,
  wrapDataKey,
} from '../../src/storage/blob-encryption.js';

const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(4000), Buffer.from([0xff, 0xd9])]);
const KEY = 'verif/t_1/vrf_abc/doc-front.jpg';

describe('image envelope encryption (AES-256-GCM)', () => {
  it('seals an image so it neither starts like a JPEG nor contains its bytes, and opens it back', () => {
    const dataKey = newDataKey();
    const sealed = sealBlob(dataKey, KEY, jpeg);
    expect(sealed.subarray(0, 4).toString('latin1')).toBe('SVB1');
    expect(sealed.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false);
    expect(sealed.includes(jpeg.subarray(100, 132))).toBe(false);
    expect(isSealed(sealed)).toBe(true);
    expect(isSealed(jpeg)).toBe(false);
    expect(openBlob(dataKey, KEY, sealed).equals(jpeg)).toBe(true);
    // A fresh IV each time: the same image never seals to the same bytes.
    expect(sealBlob(dataKey, KEY, jpeg).equals(sealed)).toBe(false);
  });

  it('refuses a tampered object, another data key, or the object moved to another slot', () => {
    const dataKey = newDataKey();
    const sealed = sealBlob(dataKey, KEY, jpeg);
    const tampered = Buffer.from(sealed);
    tampered[200] = tampered[200]! ^ 1;
    expect(() => openBlob(dataKey, KEY, tampered)).toThrow(BlobDecryptionError);
    expect(() => openBlob(newDataKey(), KEY, sealed)).toThrow(BlobDecryptionError);
    expect(() => openBlob(dataKey, 'verif/t_1/vrf_abc/selfie.jpg', sealed)).toThrow(BlobDecryptionError);
  });

  it('wraps a data key under the master key, bound to its verification', () => {
    const master = randomBytes(32);
    const dataKey = newDataKey();
    const wrapped = wrapDataKey(master, 'vrf_abc', dataKey);
    expect(wrapped.includes(dataKey)).toBe(false);
    expect(unwrapDataKey(master, 'vrf_abc', wrapped).equals(dataKey)).toBe(true);
    expect(() => unwrapDataKey(randomBytes(32), 'vrf_abc', wrapped)).toThrow(BlobDecryptionError);
    expect(() => unwrapDataKey(master, 'vrf_other', wrapped)).toThrow(BlobDecryptionError);
    expect(masterKeyId(master)).toMatch(/^[0-9a-f]{16}$/);
    expect(masterKeyId(master)).not.toBe(masterKeyId(randomBytes(32)));
  });
});
