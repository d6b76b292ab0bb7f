/**
 * The constants of "continue on a phone" (handoff.ts holds its schemas), apart from any schema so
 * that a browser bundle takes them without zod.
 */

/** A handoff code: at least 128 random bits, base64url, in `handoffUrl` (`{base_url}/continue/<code>`). */
export const HANDOFF_CODE_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;
/** The path the phone opens; the code follows it. */
export const HANDOFF_PAGE_PATH = '/continue/';
/** How often the desktop widget asks for the handoff's state. */
export const HANDOFF_POLL_MS = 2_000;
/** What the desktop sees: no phone yet, a phone claimed the link, the phone submitted, the link is dead. */
export const HANDOFF_STATES = ['waiting', 'in_progress', 'submitted', 'expired'] as const;
export type HandoffState = (typeof HANDOFF_STATES)[number];
