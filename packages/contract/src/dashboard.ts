import { z } from 'zod';
import { deliveryAttemptSchema } from './admin-schemas.js';
import { KEY_FAMILIES, VERDICTS, VERIFICATION_ID_PATTERN, VERIFICATION_STATUSES, WEBHOOK_EVENT_TYPES } from './codes.js';
import {
  fieldsExtractedSchema,
  modeSchema,
  reviewRequestSchema,
  scoresSchema,
  statusSchema,
  verdictSchema,
  webhookConfigSchema,
} from './schemas.js';

/** The tenant dashboard (decisions.md "Dashboard"): roles, limits, request and response shapes. */

export const DASHBOARD_ROLES = ['admin', 'reviewer'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

export const DASHBOARD_LIMITS = {
  passwordMinLength: 12,
  passwordMaxLength: 256,
  /** A session ends after this long without a request. */
  sessionIdleSeconds: 12 * 60 * 60,
  /** Five failed sign-ins for one email within 15 minutes lock it for 15 minutes. */
  lockoutFailures: 5,
  lockoutWindowSeconds: 15 * 60,
  lockoutSeconds: 15 * 60,
  inviteSeconds: 24 * 60 * 60,
  pageSizeDefault: 25,
  pageSizeMax: 100,
} as const;

/** Session cookie and CSRF header names. */
export const DASHBOARD_SESSION_COOKIE = 'dashboard_session';
export const DASHBOARD_CSRF_HEADER = 'X-CSRF-Token';

/** What the audit log records (every change made in the dashboard, and every image view). */
export const AUDIT_ACTIONS = [
  'session.signed_in',
  'session.signed_out',
  'user.invite_accepted',
  'verification.reviewed',
  'verification.image_viewed',
  'webhook.updated',
  'webhook.delivery_requeued',
  'webhook.deliveries_requeued',
  'key.created',
  'key.revoked',
  'key.origins_updated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const email = z.string().trim().toLowerCase().email().max(320);
const password = z.string().min(DASHBOARD_LIMITS.passwordMinLength).max(DASHBOARD_LIMITS.passwordMaxLength);

export const signInRequestSchema = z.object({
  email: z.string().trim().toLowerCase().max(320),
  password: z.string().max(DASHBOARD_LIMITS.passwordMaxLength),
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

/** Operator route: POST /admin/v1/tenants/:tenantId/users. */
export const createUserRequestSchema = z.object({ email, role: z.enum(DASHBOARD_ROLES), password: password.optional() });
export type CreateUserRequest = z.infer<typeof createUserRequestSchema>;
export const createUserResponseSchema = z.object({
  userId: z.string(),
  email: z.string(),
  role: z.enum(DASHBOARD_ROLES),
  inviteUrl: z.string().nullable(),
});

export const acceptInviteRequestSchema = z.object({ token: z.string().min(1).max(200), password });

export const dashboardSessionSchema = z.object({
  user: z.object({ userId: z.string(), email: z.string(), role: z.enum(DASHBOARD_ROLES) }),
  tenant: z.object({ tenantId: z.string(), name: z.string() }),
  csrfToken: z.string(),
});
export type DashboardSession = z.infer<typeof dashboardSessionSchema>;

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const verificationListQuerySchema = z.object({
  mode: modeSchema.optional().default('live'),
  status: z.enum(VERIFICATION_STATUSES).optional(),
  verdict: z.enum(VERDICTS).optional(),
  /** Only verifications waiting for a reviewer's decision (the review queue). */
  awaitingReview: booleanQuery.optional(),
  /** Cursor: the id of the last row of the previous page. */
  cursor: z.string().regex(VERIFICATION_ID_PATTERN).optional(),
  limit: z.coerce.number().int().min(1).max(DASHBOARD_LIMITS.pageSizeMax).optional().default(DASHBOARD_LIMITS.pageSizeDefault),
});
export type VerificationListQuery = z.input<typeof verificationListQuerySchema>;

export const verificationSummarySchema = z.object({
  verificationId: z.string(),
  mode: modeSchema,
  status: statusSchema.nullable(),
  verdict: verdictSchema.nullable(),
  reasons: z.array(z.string()),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  awaitingReview: z.boolean(),
});
export type VerificationSummary = z.infer<typeof verificationSummarySchema>;
export const verificationListSchema = z.object({ data: z.array(verificationSummarySchema), nextCursor: z.string().nullable() });

export const timelineEntrySchema = z.object({
  at: z.string(),
  kind: z.enum(['state', 'webhook', 'review']),
  label: z.string(),
  detail: z.string().nullable(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const verificationDetailSchema = verificationSummarySchema.extend({
  scores: scoresSchema.nullable(),
  fieldsExtracted: fieldsExtractedSchema.nullable(),
  submittedFullName: z.string().nullable(),
  documentType: z.string().nullable(),
  country: z.string().nullable(),
  activeLiveness: z.boolean(),
  review: z.object({ decision: z.enum(['approved', 'rejected']), decidedAt: z.string(), note: z.string().nullable() }).nullable(),
  /** Image roles stored for this verification (doc-front, doc-back, selfie, liveness-*). */
  images: z.array(z.string()),
  livenessSteps: z.array(z.object({ step: z.number().int(), pose: z.string(), frames: z.array(z.string()) })),
  timeline: z.array(timelineEntrySchema),
  /** When the tenant redacted it (images and personal data erased at once), else null. */
  redactedAt: z.string().nullable(),
  /** When its images were deleted (retention or redaction), else null. */
  imagesDeletedAt: z.string().nullable(),
  /** When its typed name and extracted fields were erased, else null. */
  personalDataErasedAt: z.string().nullable(),
});
export type VerificationDetail = z.infer<typeof verificationDetailSchema>;

export const dashboardReviewRequestSchema = reviewRequestSchema;
/** Production rules; the server uses `webhookConfigSchemaFor` with its WEBHOOK_ALLOW_PRIVATE_NETWORKS setting. */
export const webhookSettingsRequestSchema = webhookConfigSchema;
export const webhookSettingsSchema = z.object({ url: z.string().nullable(), secretSet: z.boolean() });

export const dashboardKeySchema = z.object({
  keyId: z.string(),
  family: z.enum(KEY_FAMILIES),
  mode: modeSchema,
  prefix: z.string(),
  lastFour: z.string(),
  allowedOrigins: z.array(z.string()),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type DashboardKey = z.infer<typeof dashboardKeySchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  userEmail: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const dashboardDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  verificationId: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  attemptLog: z.array(deliveryAttemptSchema),
});
export type DashboardDelivery = z.infer<typeof dashboardDeliverySchema>;
