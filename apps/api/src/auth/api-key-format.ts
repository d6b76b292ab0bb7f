import { API_KEY_PATTERN, API_KEY_PREFIXES, type ApiKeyPrefix, type KeyFamily, type Mode } from '@service/contract';
import { randomBase62 } from '../util/ids.js';

/** Family and mode of a well-formed key, or null when it breaks the format rule. */
export function parseApiKey(key: string): { family: KeyFamily; mode: Mode } | null {
  const m = API_KEY_PATTERN.exec(key);
  if (!m) return null;
  return API_KEY_PREFIXES[m[1] as ApiKeyPrefix];
}

export function prefixFor(family: KeyFamily, mode: Mode): ApiKeyPrefix {
  const entry = Object.entries(API_KEY_PREFIXES).find(([, v]) => v.family === family && v.mode === mode);
  return entry![0] as ApiKeyPrefix;
}

/** A new key: prefix + 40 base62 characters (about 238 bits). */
export function generateApiKey(family: KeyFamily, mode: Mode): string {
  return `${prefixFor(family, mode)}${randomBase62(40)}`;
}

/** `Authorization: Bearer <token>`; undefined when absent or not a Bearer token. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m?.[1];
}
