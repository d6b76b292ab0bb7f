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
  WEBHOOK_TEST_EVENT_TYPE,
  WIDGET_ERROR_CODES,
} from './codes.js';
import { LIMITS } from './limits.js';

// ---------------------------------------------------------------- shared pieces

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/**
 * Text the database can store as sent: PostgreSQL refuses NUL in text and jsonb, and a lone UTF-16
 * surrogate has no UTF-8 form (it would be stored altered). Every string a request carries is
 * checked with it, so such data is 400 `invalid_body`, never a failed statement.
 */
export function isStorableText(s: string): boolean {
  return !s.includes('\u0000') && !LONE_SURROGATE.test(s);
}
export const STORABLE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates';
const storable = [isStorableText, STORABLE_TEXT_MESSAGE] as const;
/** The largest value of a PostgreSQL `integer` column (credits). */
export const MAX_INT32 = 2_147_483_647;

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
  userRef: z
    .string()
    .min(1)
    .max(LIMITS.userRefMaxLength)
    .refine(...storable)
    .optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be exactly two uppercase letters (ISO 3166-1 alpha-2)')
    .optional(),
  documentType: z.enum(DOCUMENT_TYPES).optional(),
  submittedFullName: z
    .string()
    .min(1)
    .max(LIMITS.submittedFullNameMaxLength)
    .refine(...storable)
    .optional(),
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
    docFront: z
      .string()
      .min(1)
      .max(512)
      .refine(...storable),
    selfie: z
      .string()
      .min(1)
      .max(512)
      .refine(...storable),
    docBack: z
      .string()
      .min(1)
      .max(512)
      .refine(...storable)
      .optional(),
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
  /** Present once the tenant redacted it (`POST /v1/verify/:id/redact`): images and personal data erased. */
  redactedAt: z.string().optional(),
  requestId: requestIdSchema,
});
export type ResultRecord = z.infer<typeof resultRecordSchema>;

/** `POST /v1/verify/:id/redact`: when its images and personal data were erased (the first request's time). */
export const redactResponseSchema = z.object({
  verificationId: verificationIdSchema,
  redactedAt: z.string(),
  requestId: requestIdSchema,
});
export type RedactResponse = z.infer<typeof redactResponseSchema>;

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

/**
 * A signed test delivery the operator sends on demand (`POST /admin/v1/tenants/:id/webhook/test`)
 * to check a receiver: it concerns no verification. Receivers that ignore unknown types are fine.
 */
export const webhookTestEventSchema = z.object({
  id: z.string().regex(/^evt_[0-9a-f]+$/),
  type: z.literal(WEBHOOK_TEST_EVENT_TYPE),
  createdAt: z.string(),
  mode: z.literal('test'),
});
export type WebhookTestEvent = z.infer<typeof webhookTestEventSchema>;
/** Anything a receiver may get: a verification event or an operator's test delivery. */
export type AnyWebhookEvent = WebhookEvent | WebhookTestEvent;

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
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine(...storable),
  credits: z.number().int().min(0).max(MAX_INT32).optional().default(0),
});
/**
 * Hosts that may receive `http://` webhooks in development (WEBHOOK_ALLOW_PRIVATE_NETWORKS=true):
 * `localhost`, 127.0.0.0/8 and `[::1]`, written literally in the URL. Anything else needs https.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h === '[::1]' || h === '::1') return true;
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return m !== null && m.slice(1).every((o) => Number(o) <= 255);
}

/** WHATWG URL exists in browsers and Node alike; the contract compiles without either's typings. */
declare const URL: new (input: string) => { protocol: string; hostname: string };

/** A webhook URL: https, or (development only) http to a loopback host. */
function webhookUrlSchema(allowLoopbackHttp: boolean) {
  return z
    .url({ protocol: /^https?$/, error: 'must be an https:// URL' })
    .max(2048)
    .refine(...storable)
    .refine(
      (u) => {
        const url = new URL(u);
        return url.protocol === 'https:' || (allowLoopbackHttp && isLoopbackHost(url.hostname));
      },
      allowLoopbackHttp ? 'must be an https:// URL (http:// only to localhost, 127.0.0.0/8 or [::1])' : 'must be an https:// URL',
    )
    .refine(...storable);
}

/** Webhook settings; `allowLoopbackHttp` follows WEBHOOK_ALLOW_PRIVATE_NETWORKS (development only). */
export function webhookConfigSchemaFor(opts: { allowLoopbackHttp: boolean }) {
  return z.object({
    url: webhookUrlSchema(opts.allowLoopbackHttp),
    /** Blank or absent keeps the current secret. */
    secret: z
      .string()
      .optional()
      .refine((s) => s === undefined || s === '' || s.length >= LIMITS.webhookSecretMinLength, {
        message: `must be at least ${LIMITS.webhookSecretMinLength} characters`,
      })
      .refine((s) => s === undefined || isStorableText(s), STORABLE_TEXT_MESSAGE),
  });
}
export const webhookConfigSchema = webhookConfigSchemaFor({ allowLoopbackHttp: false });
/** `GET /admin/v1/tenants?limit=&cursor=`: newest first, 1-100 a page (default 20). */
export const listTenantsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
});
export const tenantSummarySchema = z.object({
  tenantId: z.string(),
  name: z.string(),
  credits: z.number().int(),
  createdAt: z.string(),
  webhook: z.object({ url: z.string() }).nullable(),
});
export type TenantSummary = z.infer<typeof tenantSummarySchema>;

/** Tenant changes; pass `{allowLoopbackHttp: true}` where WEBHOOK_ALLOW_PRIVATE_NETWORKS is on. */
export function patchTenantRequestSchemaFor(opts: { allowLoopbackHttp: boolean }) {
  return z.object({
    credits: z.number().int().min(0).max(MAX_INT32).optional(),
    webhook: webhookConfigSchemaFor(opts).nullable().optional(),
  });
}
export const patchTenantRequestSchema = patchTenantRequestSchemaFor({ allowLoopbackHttp: false });
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
  note: z
    .string()
    .max(2000)
    .refine(...storable)
    .optional(),
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
