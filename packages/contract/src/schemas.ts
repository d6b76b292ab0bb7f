import { z } from 'zod';
import {
  CAPTURE_SOURCES,
  DOCUMENT_TYPES,
  ERROR_CODES,
  KEY_FAMILIES,
  LIVENESS_POSES,
  MODES,
  SCORE_NAMES,
  VERDICTS,
  VERIFICATION_ID_PATTERN,
  VERIFICATION_STATUSES,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  WIDGET_ERROR_CODES,
} from './codes.js';
import { LIMITS } from './limits.js';

// ---------------------------------------------------------------- shared pieces

export const verificationIdSchema = z.string().regex(VERIFICATION_ID_PATTERN, 'must match ^vf_[A-Za-z0-9]{16,24}$');
export const statusSchema = z.enum(VERIFICATION_STATUSES);
export const verdictSchema = z.enum(VERDICTS);
export const modeSchema = z.enum(MODES);
export const requestIdSchema = z.string().min(1);

/** The interface's Error object. */
export const errorObjectSchema = z.object({
  error: z.string(),
  message: z.string(),
  requestId: requestIdSchema,
  detail: z
    .object({
      fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
      reason: z.string().optional(),
      retry_after: z.number().int().nonnegative().optional(),
    })
    .loose()
    .optional(),
});
export type ErrorObject = z.infer<typeof errorObjectSchema>;
export const errorCodeSchema = z.enum(ERROR_CODES as [string, ...string[]]);

// ---------------------------------------------------------------- init

/** Non-strict: unknown keys are dropped before validation (zod's default strip). */
export const initRequestSchema = z.object({
  userRef: z.string().min(1).max(LIMITS.userRefMaxLength).optional(),
  country: z.string().regex(/^[A-Z]{2}$/, 'must be exactly two uppercase letters (ISO 3166-1 alpha-2)').optional(),
  documentType: z.enum(DOCUMENT_TYPES).optional(),
  submittedFullName: z.string().min(1).max(LIMITS.submittedFullNameMaxLength).optional(),
  activeLiveness: z.boolean().optional().default(false),
});
export type InitRequest = z.input<typeof initRequestSchema>;

export const uploadSlotSchema = z.object({
  url: z.string().url(),
  key: z.string(),
  method: z.literal('PUT'),
  headers: z.object({ 'X-Service-Upload-Token': z.string(), 'Content-Type': z.literal('image/jpeg') }),
});
export type UploadSlot = z.infer<typeof uploadSlotSchema>;

export const livenessInfoSchema = z.object({
  challengeUrl: z.string().url(),
  steps: z.number().int(),
  burst: z.number().int(),
  anchor: uploadSlotSchema,
  frameUrlTemplate: z.string(),
});
export type LivenessInfo = z.infer<typeof livenessInfoSchema>;

export const initResponseSchema = z.object({
  verificationId: verificationIdSchema,
  uploads: z.object({ docFront: uploadSlotSchema, docBack: uploadSlotSchema, selfie: uploadSlotSchema }),
  expiresAt: z.number().int(),
  liveness: livenessInfoSchema.optional(),
  requestId: requestIdSchema,
});
export type InitResponse = z.infer<typeof initResponseSchema>;

// ---------------------------------------------------------------- upload

export const captureSourceSchema = z.enum(CAPTURE_SOURCES);
export const uploadResponseSchema = z.object({ ok: z.literal(true), key: z.string(), requestId: requestIdSchema });
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

// ---------------------------------------------------------------- challenge

export const challengeBeaconSchema = z.union([
  z.object({
    verificationId: verificationIdSchema,
    step: z.number().int().min(1),
    totalSteps: z.number().int(),
    pose: z.enum(LIVENESS_POSES),
    burst: z.number().int(),
    roles: z.array(z.string()),
    nonce: z.string(),
    expiresAt: z.number().int(),
    done: z.literal(false),
    requestId: requestIdSchema,
  }),
  z.object({ verificationId: verificationIdSchema, done: z.literal(true), requestId: requestIdSchema }),
]);
export type ChallengeBeacon = z.infer<typeof challengeBeaconSchema>;

// ---------------------------------------------------------------- submit

export const submitRequestSchema = z.object({
  verificationId: verificationIdSchema,
  keys: z.object({
    docFront: z.string().min(1).max(512),
    selfie: z.string().min(1).max(512),
    docBack: z.string().min(1).max(512).optional(),
  }),
});
export type SubmitRequest = z.infer<typeof submitRequestSchema>;

export const submitResponseSchema = z.object({
  verificationId: verificationIdSchema,
  status: statusSchema,
  verdict: verdictSchema.nullable().optional(),
  requestId: requestIdSchema,
});
export type SubmitResponse = z.infer<typeof submitResponseSchema>;

// ---------------------------------------------------------------- result

export const scoresSchema = z.object(
  Object.fromEntries(SCORE_NAMES.map((n) => [n, z.number().min(0).max(1).nullable()])) as Record<
    (typeof SCORE_NAMES)[number],
    z.ZodNullable<z.ZodNumber>
  >,
);
export type Scores = z.infer<typeof scoresSchema>;

export const fieldsExtractedSchema = z.object({
  fullName: z.string().nullable(),
  documentNumber: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  expiryDate: z.string().nullable(),
  nationality: z.string().nullable(),
});
export type FieldsExtracted = z.infer<typeof fieldsExtractedSchema>;

export const reviewBlockSchema = z.object({ decision: z.enum(['approved', 'rejected']), decidedAt: z.string() });

export const resultRecordSchema = z.object({
  verificationId: verificationIdSchema,
  status: statusSchema,
  verdict: verdictSchema.nullable(),
  mode: modeSchema,
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  scores: scoresSchema.nullable(),
  reasons: z.array(z.string()),
  review: reviewBlockSchema.nullable(),
  requestId: requestIdSchema,
});
export type ResultRecord = z.infer<typeof resultRecordSchema>;

// ---------------------------------------------------------------- webhooks

export const webhookEventSchema = z.object({
  id: z.string().regex(/^evt_[0-9a-f]+$/),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  createdAt: z.string(),
  verificationId: verificationIdSchema,
  verdict: verdictSchema.nullable(),
  mode: modeSchema,
  userRef: z.string().optional(),
  scores: scoresSchema.nullable(),
  fieldsExtracted: fieldsExtractedSchema.nullable(),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

// ---------------------------------------------------------------- widget events

export const widgetCompleteDetailSchema = z.object({
  verificationId: verificationIdSchema,
  status: z.enum(['queued', 'processing', 'completed']),
  verdict: verdictSchema.optional(),
});
export type WidgetCompleteDetail = z.infer<typeof widgetCompleteDetailSchema>;

export const widgetErrorDetailSchema = z.object({
  code: z.enum(WIDGET_ERROR_CODES),
  message: z.string(),
  detail: z.record(z.string(), z.unknown()).optional(),
});
export type WidgetErrorDetail = z.infer<typeof widgetErrorDetailSchema>;

// ---------------------------------------------------------------- operator API

export const createTenantRequestSchema = z.object({
  name: z.string().trim().min(1).max(200),
  credits: z.number().int().min(0).optional().default(0),
});
export const webhookConfigSchema = z.object({
  url: z.url({ protocol: /^https$/, error: 'must be an https:// URL' }).max(2048),
  /** Blank or absent keeps the current secret. */
  secret: z
    .string()
    .optional()
    .refine((s) => s === undefined || s === '' || s.length >= LIMITS.webhookSecretMinLength, {
      message: `must be at least ${LIMITS.webhookSecretMinLength} characters`,
    }),
});
export const patchTenantRequestSchema = z.object({
  credits: z.number().int().min(0).optional(),
  webhook: webhookConfigSchema.nullable().optional(),
});
const hostnameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9.-]{1,253}$/, 'must be a bare hostname (no scheme, no port, no path)');
export const createKeyRequestSchema = z.object({
  family: z.enum(KEY_FAMILIES),
  mode: modeSchema,
  allowedOrigins: z.array(hostnameSchema).max(100).optional().default([]),
});
export const patchKeyRequestSchema = z.object({ allowedOrigins: z.array(hostnameSchema).max(100) });
export const reviewRequestSchema = z.object({
  verdict: z.enum(['approved', 'rejected']),
  note: z.string().max(2000).optional(),
});
export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export const requeueFailedRequestSchema = z.object({ since: z.string().datetime({ offset: true }) });
