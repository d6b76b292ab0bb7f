/**
 * Allowed origins are bare hostnames; only the Origin's hostname is compared. An empty list
 * allows every origin; a request without Origin (not a browser) is never checked.
 */
export function originAllowed(originHeader: string | undefined, allowed: readonly string[]): boolean {
  if (!originHeader || allowed.length === 0) return true;
  let hostname: string;
  try {
    hostname = new URL(originHeader).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false; // "null" or garbage: not on any list
  }
  return allowed.some((h) => h.toLowerCase() === hostname);
}
