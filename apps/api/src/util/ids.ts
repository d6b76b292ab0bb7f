import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Unbiased random base62 string: one randomBytes call, bytes >= 248 rejected (248 = 4 * 62). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length + 8)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export const newVerificationId = () => `vf_${randomBase62(20)}`;
export const newTenantId = () => `tn_${randomBase62(16)}`;
export const newKeyId = () => `key_${randomBase62(16)}`;
export const newRequestId = () => `req_${randomBytes(12).toString('hex')}`;
export const newEventId = () => `evt_${randomBytes(16).toString('hex')}`;
export const newDeliveryId = () => `whd_${randomBase62(16)}`;
/** 192-bit upload token, URL-safe. */
export const newUploadToken = () => randomBytes(24).toString('base64url');
export const newNonce = () => randomBytes(16).toString('hex');

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}
