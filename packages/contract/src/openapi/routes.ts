import { z } from 'zod';
import {
  ADMIN_REASONS,
  SUBMIT_REASONS,
  UPLOAD_REASONS,
  type ErrorCode,
  type InvalidBodyReason,
  WEBHOOK_DELIVERY_STATUSES,
} from '../codes.js';
import {
  createdKeyResponseSchema,
  createdTenantResponseSchema,
  deliveryListResponseSchema,
  healthResponseSchema,
  keyListResponseSchema,
  keyResponseSchema,
  requeueDeliveryResponseSchema,
  requeueFailedResponseSchema,
  reviewResponseSchema,
  tenantListResponseSchema,
  tenantResponseSchema,
  webhookTestResponseSchema,
  readinessResponseSchema,
  blobKeysRewrapResponseSchema,
} from '../admin-schemas.js';
import {
  challengeBeaconSchema,
  createKeyRequestSchema,
  createTenantRequestSchema,
  initRequestSchema,
  listTenantsQuerySchema,
  initResponseSchema,
  patchKeyRequestSchema,
  patchTenantRequestSchema,
  redactResponseSchema,
  requeueFailedRequestSchema,
  resultRecordSchema,
  reviewRequestSchema,
  submitRequestSchema,
  submitResponseSchema,
  uploadResponseSchema,
  verificationIdSchema,
} from '../schemas.js';
import { createUserRequestSchema, createUserResponseSchema } from '../dashboard.js';
import * as ex from './examples.js';
import { HANDOFF_ROUTES } from './handoff-routes.js';

/** Who may call a route: the security requirement of its operation. */
export type RouteAuth = 'api_key' | 'secret_key' | 'upload_token' | 'admin_token' | 'none';

export interface RouteParam {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: z.ZodType;
  required?: boolean;
  description: string;
}

export interface RouteSpec {
  method: 'get' | 'post' | 'put' | 'patch';
  /** The router's pattern (`:name` segments). */
  path: string;
  operationId: string;
  summary: string;
  auth: RouteAuth;
  rateLimited: boolean;
  params?: RouteParam[];
  body?: { schema: z.ZodType; example: unknown } | { jpeg: true };
  response: { status: number; schema: z.ZodType; example: unknown } | { status: number; contentType: string };
  /** Every error code the route can answer, besides the universal `internal_error`. */
  errors: ErrorCode[];
  /** The `detail.reason` values of its 400 `invalid_body`. */
  reasons?: readonly InvalidBodyReason[];
}

const AUTH_ERRORS: ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'insufficient_credits', 'origin_not_allowed'];
/** A secret-key route on one verification of the key's tenant and mode (read it, redact it). */
const OWN_VERIFICATION_ERRORS: ErrorCode[] = [
  ...AUTH_ERRORS,
  'secret_key_required',
  'verification_not_found',
  'rate_limited',
  'backend_unavailable',
];
const idParam = (name: string, description: string): RouteParam => ({ name, in: 'path', schema: z.string(), description });
const vfParam = (name: string): RouteParam => ({
  name,
  in: 'path',
  schema: verificationIdSchema,
  description: 'The verification id init returned',
});
const uploadTokenHeader: RouteParam = {
  name: 'X-Service-Upload-Token',
  in: 'header',
  schema: z.string(),
  required: true,
  description: 'The upload token of the verification, from the upload slot init returned',
};
const CHALLENGE_REASONS = ['missing_upload_token', 'invalid_upload_token', 'no_active_challenge', 'already_submitted'] as const;

/** The public API (`/v1`, the widget assets, health). */
export const PUBLIC_ROUTES: RouteSpec[] = [
  {
    method: 'get',
    path: '/health',
    operationId: 'health',
    summary: 'Liveness: 200 while the process serves',
    auth: 'none',
    rateLimited: false,
    response: { status: 200, schema: healthResponseSchema, example: ex.health },
    errors: [],
  },
  {
    method: 'get',
    path: '/health/ready',
    operationId: 'readiness',
    summary: 'Readiness: 200 when the database, the queue and the blob store answer, else 503 naming what failed',
    auth: 'none',
    rateLimited: false,
    response: { status: 200, schema: readinessResponseSchema, example: ex.readiness },
    errors: ['backend_unavailable'],
  },
  {
    method: 'post',
    path: '/v1/verify/init',
    operationId: 'initVerification',
    summary: 'Create a verification intent with its upload slots',
    auth: 'api_key',
    rateLimited: true,
    body: { schema: initRequestSchema, example: ex.initRequest },
    response: { status: 200, schema: initResponseSchema, example: ex.initResponse },
    errors: ['invalid_body', ...AUTH_ERRORS, 'rate_limited', 'backend_unavailable'],
  },
  {
    method: 'put',
    path: '/v1/verify/upload/:verificationId/:role',
    operationId: 'uploadImage',
    summary: 'Upload one JPEG to a slot (document, selfie, liveness anchor or frame)',
    auth: 'upload_token',
    rateLimited: true,
    params: [
      vfParam('verificationId'),
      {
        name: 'role',
        in: 'path',
        schema: z.string().regex(/^(doc-front|doc-back|selfie|liveness-anchor|liveness-[1-4]-[1-4])$/),
        description: 'doc-front, doc-back, selfie, liveness-anchor or liveness-<step>-<frame>',
      },
      uploadTokenHeader,
      {
        name: 'X-Service-Capture-Source',
        in: 'header',
        schema: z.enum(['camera', 'upload']),
        description: 'How the image was captured; `upload` is refused for biometric roles',
      },
    ],
    body: { jpeg: true },
    response: { status: 200, schema: uploadResponseSchema, example: ex.uploadResponse },
    errors: ['invalid_body', 'verification_not_found', 'rate_limited', 'backend_unavailable'],
    reasons: UPLOAD_REASONS,
  },
  {
    method: 'get',
    path: '/v1/verify/challenge/:verificationId/next',
    operationId: 'nextChallenge',
    summary: 'The next active-liveness beacon (pose, nonce, frame roles)',
    auth: 'upload_token',
    rateLimited: true,
    params: [vfParam('verificationId'), uploadTokenHeader],
    response: { status: 200, schema: challengeBeaconSchema, example: ex.challengeBeacon },
    errors: ['invalid_body', 'verification_not_found', 'rate_limited', 'backend_unavailable'],
    reasons: CHALLENGE_REASONS,
  },
  {
    method: 'post',
    path: '/v1/verify/submit',
    operationId: 'submitVerification',
    summary: 'Submit the uploaded images for processing (takes one credit in live mode)',
    auth: 'api_key',
    rateLimited: true,
    body: { schema: submitRequestSchema, example: ex.submitRequest },
    response: { status: 202, schema: submitResponseSchema, example: ex.submitResponse },
    errors: ['invalid_body', ...AUTH_ERRORS, 'verification_not_found', 'rate_limited', 'backend_unavailable'],
    reasons: SUBMIT_REASONS,
  },
  ...HANDOFF_ROUTES,
  {
    method: 'get',
    path: '/v1/verify/:id',
    operationId: 'retrieveVerification',
    summary: 'The result record of a verification (secret key only)',
    auth: 'secret_key',
    rateLimited: true,
    params: [vfParam('id')],
    response: { status: 200, schema: resultRecordSchema, example: ex.resultRecord },
    errors: OWN_VERIFICATION_ERRORS,
  },
  {
    method: 'post',
    path: '/v1/verify/:id/redact',
    operationId: 'redactVerification',
    summary: "Erase a verification's images and personal data now; its result record stays (idempotent)",
    auth: 'secret_key',
    rateLimited: true,
    params: [vfParam('id')],
    response: { status: 200, schema: redactResponseSchema, example: ex.redactResponse },
    errors: OWN_VERIFICATION_ERRORS,
  },
  ...[
    ['/widget/service-widget.js', 'text/javascript'],
    ['/widget/service-widget.js.map', 'application/json'],
  ].map(([path, contentType]): RouteSpec => ({
    method: 'get',
    path: path!,
    operationId: `widgetAsset_${path!.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
    summary: 'A static asset of <service-widget> (ETag, 304 on If-None-Match)',
    auth: 'none',
    rateLimited: false,
    response: { status: 200, contentType: contentType! },
    errors: ['not_found'],
  })),
  {
    method: 'get',
    path: '/widget/chunks/:file',
    operationId: 'widgetChunk',
    summary:
      'A lazily loaded part of the widget (a language, liveness, the handoff screen, the frame worker) by its content-hashed name, cached immutably',
    auth: 'none',
    rateLimited: false,
    params: [{ name: 'file', in: 'path', schema: z.string(), description: 'A chunk name the widget imports (`<name>-<hash>.js`)' }],
    response: { status: 200, contentType: 'text/javascript' },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/widget/vision/manifest.json',
    operationId: 'widgetVisionManifest',
    summary: "The widget's on-device vision files: their content-hashed names (short cache)",
    auth: 'none',
    rateLimited: false,
    response: { status: 200, contentType: 'application/json' },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/widget/vision/:file',
    operationId: 'widgetVisionFile',
    summary: 'One vision file (model or wasm) by its content-hashed name, cached immutably for a year',
    auth: 'none',
    rateLimited: false,
    params: [{ name: 'file', in: 'path', schema: z.string(), description: 'A name from the manifest (`<name>.<hash>.<ext>`)' }],
    response: { status: 200, contentType: 'application/octet-stream' },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'publicOpenApi',
    summary: 'This document',
    auth: 'none',
    rateLimited: false,
    response: { status: 200, contentType: 'application/json' },
    errors: [],
  },
];

const TENANT = idParam('tenantId', 'The tenant id (`tn_...`)');

/** The operator API (`/admin/v1`), behind ADMIN_TOKEN. */
export const ADMIN_ROUTES: RouteSpec[] = [
  {
    method: 'post',
    path: '/admin/v1/tenants',
    operationId: 'createTenant',
    summary: 'Create a tenant with one key of each family and mode (the keys are shown once)',
    auth: 'admin_token',
    rateLimited: false,
    body: { schema: createTenantRequestSchema, example: ex.createTenantRequest },
    response: { status: 201, schema: createdTenantResponseSchema, example: ex.createdTenant },
    errors: ['invalid_admin_token', 'invalid_body'],
  },
  {
    method: 'get',
    path: '/admin/v1/tenants',
    operationId: 'listTenants',
    summary: 'Tenants, newest first, a page at a time',
    auth: 'admin_token',
    rateLimited: false,
    params: [
      { name: 'limit', in: 'query', schema: listTenantsQuerySchema.shape.limit, description: '1-100, default 20' },
      { name: 'cursor', in: 'query', schema: listTenantsQuerySchema.shape.cursor, description: 'nextCursor of the previous page' },
    ],
    response: { status: 200, schema: tenantListResponseSchema, example: ex.tenantList },
    errors: ['invalid_admin_token', 'invalid_body'],
  },
  {
    method: 'get',
    path: '/admin/v1/tenants/:tenantId',
    operationId: 'getTenant',
    summary: 'A tenant (never its webhook secret)',
    auth: 'admin_token',
    rateLimited: false,
    params: [TENANT],
    response: { status: 200, schema: tenantResponseSchema, example: ex.tenant },
    errors: ['invalid_admin_token', 'not_found'],
  },
  {
    method: 'patch',
    path: '/admin/v1/tenants/:tenantId',
    operationId: 'updateTenant',
    summary: 'Set credits or the webhook endpoint',
    auth: 'admin_token',
    rateLimited: false,
    params: [TENANT],
    body: { schema: patchTenantRequestSchema, example: ex.patchTenantRequest },
    response: { status: 200, schema: tenantResponseSchema, example: ex.tenant },
    errors: ['invalid_admin_token', 'invalid_body', 'not_found'],
  },
  {
    method: 'get',
    path: '/admin/v1/tenants/:tenantId/keys',
    operationId: 'listKeys',
    summary: 'The keys of a tenant (never the key strings)',
    auth: 'admin_token',
    rateLimited: false,
    params: [TENANT],
    response: { status: 200, schema: keyListResponseSchema, example: ex.keyList },
    errors: ['invalid_admin_token', 'not_found'],
  },
  {
    method: 'post',
    path: '/admin/v1/tenants/:tenantId/keys',
    operationId: 'createKey',
    summary: 'Issue a key (the string is shown once)',
    auth: 'admin_token',
    rateLimited: false,
    params: [TENANT],
    body: { schema: createKeyRequestSchema, example: ex.createKeyRequest },
    response: { status: 201, schema: createdKeyResponseSchema, example: ex.createdKey },
    errors: ['invalid_admin_token', 'invalid_body', 'not_found'],
  },
  {
    method: 'patch',
    path: '/admin/v1/keys/:keyId',
    operationId: 'updateKey',
    summary: "Replace a key's allowed origins",
    auth: 'admin_token',
    rateLimited: false,
    params: [idParam('keyId', 'The key id')],
    body: { schema: patchKeyRequestSchema, example: ex.patchKeyRequest },
    response: { status: 200, schema: keyResponseSchema, example: ex.key },
    errors: ['invalid_admin_token', 'invalid_body', 'not_found'],
  },
  {
    method: 'post',
    path: '/admin/v1/keys/:keyId/revoke',
    operationId: 'revokeKey',
    summary: 'Revoke a key (idempotent)',
    auth: 'admin_token',
    rateLimited: false,
    params: [idParam('keyId', 'The key id')],
    response: { status: 200, schema: keyResponseSchema, example: { ...ex.key, revoked: true } },
    errors: ['invalid_admin_token', 'not_found'],
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics of this process (requests, jobs, queue depth, verdicts, webhooks, blob store)',
    auth: 'admin_token',
    rateLimited: false,
    response: { status: 200, contentType: 'text/plain' },
    errors: ['invalid_admin_token'],
  },
  {
    method: 'post',
    path: '/admin/v1/blob-keys/rewrap',
    operationId: 'rewrapBlobKeys',
    summary: 'Key rotation: re-wrap up to 1,000 image data keys of earlier master keys under the current one',
    auth: 'admin_token',
    rateLimited: false,
    response: {
      status: 200,
      schema: blobKeysRewrapResponseSchema,
      example: { currentKeyId: '3f9a2c1e7b5d4a60', rewrapped: 120, remaining: 0, unknown: 0, requestId: 'req_0123456789abcdef01234567' },
    },
    errors: ['invalid_admin_token'],
  },
  {
    method: 'post',
    path: '/admin/v1/verifications/:verificationId/review',
    operationId: 'reviewVerification',
    summary: 'Decide a verification whose verdict is `review`',
    auth: 'admin_token',
    rateLimited: false,
    params: [vfParam('verificationId')],
    body: { schema: reviewRequestSchema, example: ex.reviewRequest },
    response: { status: 200, schema: reviewResponseSchema, example: ex.review },
    errors: ['invalid_admin_token', 'invalid_body', 'verification_not_found', 'not_in_review'],
  },
  {
    method: 'post',
    path: '/admin/v1/tenants/:tenantId/users',
    operationId: 'createDashboardUser',
    summary: 'Create a dashboard user of the tenant (with a password, or a single-use invite URL valid 24 h)',
    auth: 'admin_token',
    rateLimited: false,
    params: [TENANT],
    body: { schema: createUserRequestSchema, example: ex.createUserRequest },
    response: { status: 201, schema: createUserResponseSchema.extend({ requestId: z.string() }), example: ex.createdUser },
    errors: ['invalid_admin_token', 'invalid_body', 'not_found', 'user_exists'],
  },
  {
    method: 'post',
    path: '/admin/v1/tenants/:tenantId/webhook/test',
    operationId: 'sendTestWebhook',
    summary: "Send a signed test event to the tenant's webhook now and report the answer",
    auth: 'admin_token',
    rateLimited: false,
    params: [TENANT],
    response: { status: 200, schema: webhookTestResponseSchema, example: ex.webhookTest },
    errors: ['invalid_admin_token', 'not_found'],
  },
  {
    method: 'get',
    path: '/admin/v1/tenants/:tenantId/webhook-deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'The delivery log of a tenant, newest first, with every attempt',
    auth: 'admin_token',
    rateLimited: false,
    params: [
      TENANT,
      { name: 'status', in: 'query', schema: z.enum(WEBHOOK_DELIVERY_STATUSES), description: 'Only deliveries in this state' },
      { name: 'limit', in: 'query', schema: z.number().int().min(1).max(500), description: 'At most this many (default 50)' },
    ],
    response: { status: 200, schema: deliveryListResponseSchema, example: ex.deliveryList },
    errors: ['invalid_admin_token', 'invalid_body', 'not_found'],
    reasons: ADMIN_REASONS,
  },
  {
    method: 'post',
    path: '/admin/v1/webhook-deliveries/:deliveryId/requeue',
    operationId: 'requeueWebhookDelivery',
    summary: 'Send a failed delivery again',
    auth: 'admin_token',
    rateLimited: false,
    params: [idParam('deliveryId', 'The delivery id')],
    response: { status: 200, schema: requeueDeliveryResponseSchema, example: ex.requeuedDelivery },
    errors: ['invalid_admin_token', 'not_found'],
  },
  {
    method: 'post',
    path: '/admin/v1/tenants/:tenantId/webhook-deliveries/requeue',
    operationId: 'requeueFailedWebhookDeliveries',
    summary: 'Send every failed delivery since a time again',
    auth: 'admin_token',
    rateLimited: false,
    params: [TENANT],
    body: { schema: requeueFailedRequestSchema, example: ex.requeueFailedRequest },
    response: { status: 200, schema: requeueFailedResponseSchema, example: ex.requeueFailed },
    errors: ['invalid_admin_token', 'invalid_body', 'not_found'],
  },
  {
    method: 'get',
    path: '/admin/openapi.json',
    operationId: 'adminOpenApi',
    summary: 'This document',
    auth: 'none',
    rateLimited: false,
    response: { status: 200, contentType: 'application/json' },
    errors: [],
  },
];
