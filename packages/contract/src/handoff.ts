import { z } from 'zod';
import { HANDOFF_CODE_PATTERN, HANDOFF_STATES } from './handoff-constants.js';
import { LIMITS } from './limits.js';
export * from './handoff-constants.js';
import {
  initResponseSchema,
  requestIdSchema,
  statusSchema,
  submitRequestSchema,
  submitResponseSchema,
  verificationIdSchema,
} from './schemas.js';

/**
 * Continue on a phone (decisions.md "Widget: continue on a phone"): the desktop widget asks for a
 * handoff link of its verification, the phone claims it and captures into the same verification,
 * and the desktop follows by polling the handoff's state.
 */

/** BCP 47-like tag as the widget's `locale` attribute takes it (`pt-BR`); the phone resolves it as the desktop does. */
const localeSchema = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/, 'must be a language tag such as en or pt-BR')
  .max(35);

/** The capture options the phone takes over from the desktop widget. */
export const handoffOptionsSchema = z.object({
  documentBack: z.boolean(),
  activeLiveness: z.boolean(),
  locale: z.string(),
});
export type HandoffOptions = z.infer<typeof handoffOptionsSchema>;

// ---------------------------------------------------------------- create (desktop, upload token)

export const handoffCreateRequestSchema = z.object({
  verificationId: verificationIdSchema,
  /** The desktop widget's `document-back`: the phone captures the back too. Default false. */
  documentBack: z.boolean().optional().default(false),
  /** The desktop widget's `locale`, for the phone's screens. Default `en`. */
  locale: localeSchema.optional(),
});
export type HandoffCreateRequest = z.input<typeof handoffCreateRequestSchema>;

export const handoffCreateResponseSchema = z.object({
  /** `{base_url}/continue/<code>`: shown as a QR code and as text. */
  handoffUrl: z.string().url(),
  /** Integer Unix seconds: the code dies with the verification intent. */
  expiresAt: z.number().int(),
  requestId: requestIdSchema,
});
export type HandoffCreateResponse = z.infer<typeof handoffCreateResponseSchema>;

// ---------------------------------------------------------------- claim (phone, no credential but the code)

export const handoffClaimRequestSchema = z.object({
  code: z.string().regex(HANDOFF_CODE_PATTERN, 'must be the code of a handoff link'),
  /** The session a claim returned, kept by the phone so that a reload carries on. */
  handoffSession: z.string().min(1).max(128).optional(),
});
export type HandoffClaimRequest = z.infer<typeof handoffClaimRequestSchema>;

/** The verification's upload slots under a fresh upload token (only the claimant holds it), its options and the session. */
export const handoffClaimResponseSchema = initResponseSchema.extend({
  options: handoffOptionsSchema,
  /** Kept in sessionStorage by the phone page: a claim repeated with it answers again (a reload). */
  handoffSession: z.string(),
});
export type HandoffClaimResponse = z.infer<typeof handoffClaimResponseSchema>;

// ---------------------------------------------------------------- status and cancel (desktop, upload token)

export const handoffStatusResponseSchema = z.object({
  state: z.enum(HANDOFF_STATES),
  verificationId: verificationIdSchema,
  /** Once `submitted`: the verification's pipeline state, as submit would have answered. */
  status: statusSchema.optional(),
  requestId: requestIdSchema,
});
export type HandoffStatusResponse = z.infer<typeof handoffStatusResponseSchema>;

export const handoffCancelResponseSchema = z.object({
  state: z.literal('expired'),
  verificationId: verificationIdSchema,
  requestId: requestIdSchema,
});
export type HandoffCancelResponse = z.infer<typeof handoffCancelResponseSchema>;

// ---------------------------------------------------------------- submit (phone, the claim's upload token)

/** The phone holds no API key: it submits with the upload token its claim returned; same body and answer as submit. */
export const handoffSubmitRequestSchema = submitRequestSchema;
export const handoffSubmitResponseSchema = submitResponseSchema;

/** A claim renews the slots for this long (never past the intent), as init's slots are valid after init. */
export const HANDOFF_SLOT_SECONDS = LIMITS.uploadSlotSeconds;
