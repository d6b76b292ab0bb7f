import { z } from 'zod';
import { KEY_FAMILIES, VERDICTS, WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from './codes.js';
import {
  modeSchema,
  requestIdSchema,
  reviewBlockSchema,
  tenantSummarySchema,
  verificationIdSchema,
  webhookDeliverySchema,
} from './schemas.js';

/** Response bodies of the operator API and of /health (what the routes send, typed once here). */

export const healthResponseSchema = z.object({ status: z.literal('ok'), requestId: requestIdSchema });
/** `GET /health/ready` when the database, the queue and the blob store answer (else 503 backend_unavailable with `checks`). */
export const readinessResponseSchema = z.object({
  status: z.literal('ready'),
  checks: z.object({ database: z.literal('ok'), queue: z.literal('ok'), blobStore: z.literal('ok') }),
  requestId: requestIdSchema,
});

/**
 * `POST /admin/v1/blob-keys/rewrap`: data keys of earlier master keys (BLOB_ENCRYPTION_KEY_PREVIOUS)
 * re-wrapped under the current one, up to 1,000 a call; call again while `remaining` is above 0.
 */
export const blobKeysRewrapResponseSchema = z.object({
  /** Fingerprint of the current master key (never the key). */
  currentKeyId: z.string(),
  rewrapped: z.number().int(),
  /** Data keys still wrapped by another key. */
  remaining: z.number().int(),
  /** Of those, wrapped by a key this process does not hold (add it to BLOB_ENCRYPTION_KEY_PREVIOUS). */
  unknown: z.number().int(),
  requestId: requestIdSchema,
});

export const createdTenantResponseSchema = z.object({
  tenantId: z.string(),
  name: z.string(),
  credits: z.number().int(),
  keys: z.object({ publishable: z.string(), secret: z.string(), publishableTest: z.string(), secretTest: z.string() }),
  requestId: requestIdSchema,
});

export const tenantResponseSchema = z.object({
  tenantId: z.string(),
  name: z.string(),
  credits: z.number().int(),
  webhook: z.object({ url: z.string() }).nullable(),
  requestId: requestIdSchema,
});

export const keyViewSchema = z.object({
  keyId: z.string(),
  tenantId: z.string(),
  family: z.enum(KEY_FAMILIES),
  mode: modeSchema,
  /** Not secret: the key's prefix (family and mode) and its last four characters, to tell keys apart. */
  prefix: z.string(),
  /** Null for keys issued before the last four characters were recorded. */
  lastFour: z.string().nullable(),
  allowedOrigins: z.array(z.string()),
  revoked: z.boolean(),
});
export type KeyView = z.infer<typeof keyViewSchema>;
export const keyResponseSchema = keyViewSchema.extend({ requestId: requestIdSchema });
export const keyListResponseSchema = z.object({ keys: z.array(keyViewSchema), requestId: requestIdSchema });

/** The key string appears here once and is never readable again. */
export const createdKeyResponseSchema = z.object({
  keyId: z.string(),
  key: z.string(),
  family: z.enum(KEY_FAMILIES),
  mode: modeSchema,
  allowedOrigins: z.array(z.string()),
  requestId: requestIdSchema,
});

export const reviewResponseSchema = z.object({
  verificationId: verificationIdSchema,
  verdict: z.enum(VERDICTS),
  review: reviewBlockSchema,
  eventId: z.string(),
  requestId: requestIdSchema,
});

export const deliveryAttemptSchema = z.object({
  attempt: z.number().int(),
  at: z.string(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  latencyMs: z.number().nullable(),
});
export const deliveryLogEntrySchema = webhookDeliverySchema.extend({
  type: z.enum(WEBHOOK_EVENT_TYPES),
  verificationId: z.string(),
  attemptLog: z.array(deliveryAttemptSchema),
});
export const deliveryListResponseSchema = z.object({ deliveries: z.array(deliveryLogEntrySchema), requestId: requestIdSchema });
export const deliveryStatusQuerySchema = z.enum(WEBHOOK_DELIVERY_STATUSES);
export const requeueDeliveryResponseSchema = z.object({
  id: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  requeued: z.boolean(),
  requestId: requestIdSchema,
});
export const requeueFailedResponseSchema = z.object({ requeued: z.number().int().nonnegative(), requestId: requestIdSchema });

export const tenantListResponseSchema = z.object({
  data: z.array(tenantSummarySchema),
  nextCursor: z.string().nullable(),
  requestId: requestIdSchema,
});
export const webhookTestResponseSchema = z.object({
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  latencyMs: z.number(),
  eventId: z.string(),
  delivered: z.boolean(),
  requestId: requestIdSchema,
});
