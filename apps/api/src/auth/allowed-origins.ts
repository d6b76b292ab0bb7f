/**
 * Allowed origins are bare lowercase hostnames (the contract's schema normalises them); only the
 * Origin's hostname is compared. An empty list allows every origin; a request without Origin (not a
 * browser) is never checked. The comparison itself runs in the gate statement (auth/gate.ts).
 */

/** The Origin header's hostname as compared with allowed origins: '' when unparsable ("null",
 * garbage: on no list), null when there is no Origin. */
export function originHostname(header: string | undefined): string | null {
  if (!header) return null;
  try {
    return new URL(header).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return '';
  }
}
