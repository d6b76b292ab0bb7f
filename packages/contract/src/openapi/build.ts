import { z } from 'zod';
import { ERROR_STATUS, HEADERS, RETRYABLE_ERROR_CODES, WEBHOOK_EVENT_TYPES, type ErrorCode } from '../codes.js';
import { LIMITS } from '../limits.js';
import { webhookEventSchema } from '../schemas.js';
import * as ex from './examples.js';
import { ADMIN_ROUTES, PUBLIC_ROUTES, type RouteAuth, type RouteSpec } from './routes.js';

type Json = Record<string, unknown>;

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a contract schema; requests as accepted, responses as sent. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

/** `/v1/verify/:id` -> `/v1/verify/{id}`. */
export const openApiPath = (routerPath: string) => routerPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const SECURITY: Record<RouteAuth, Json[]> = {
  api_key: [{ publishableKey: [] }, { secretKey: [] }],
  secret_key: [{ secretKey: [] }],
  upload_token: [{ uploadToken: [] }],
  admin_token: [{ adminToken: [] }],
  none: [],
};

const SECURITY_SCHEMES: Json = {
  publishableKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A publishable key (`qv_pub_` live, `qv_pubt_` test): safe in a browser, limited to its allowed origins; may call init and submit only.',
  },
  secretKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'A secret key (`qv_sec_` live, `qv_sect_` test): server side only; the only key that may read a result.',
  },
  uploadToken: {
    type: 'apiKey',
    in: 'header',
    name: HEADERS.uploadToken,
    description: 'The per-verification upload token from init; a bearer key has no effect on upload and challenge routes.',
  },
  adminToken: { type: 'http', scheme: 'bearer', description: 'The operator token (`ADMIN_TOKEN`).' },
};

/** How a receiver authenticates our webhook POSTs (verify with @service/webhooks or @service/node). */
const WEBHOOK_SIGNATURE_SCHEME = {
  type: 'apiKey',
  in: 'header',
  name: HEADERS.signature,
  description:
    '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the webhook secret>`; reject when t is older than 300 s.',
};

const requestIdHeader = { $ref: '#/components/headers/XRequestId' };

function errorResponse(codes: ErrorCode[], reasons: readonly string[] | undefined, requestIdExample: string): Json {
  const detail: Json = {
    type: 'object',
    properties: {
      fieldErrors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      ...(reasons?.length ? { reason: { type: 'string', enum: [...reasons] } } : {}),
      ...(codes.includes('rate_limited') ? { retry_after: { type: 'integer', minimum: 0 } } : {}),
    },
    additionalProperties: true,
  };
  const schema = {
    type: 'object',
    required: ['error', 'message', 'requestId'],
    properties: {
      error: { type: 'string', enum: codes },
      message: { type: 'string' },
      requestId: { type: 'string', minLength: 1 },
      detail,
    },
  };
  const first = codes[0]!;
  const example: Json = {
    error: first,
    message: 'Human-readable description',
    requestId: requestIdExample,
    ...(first === 'invalid_body' && reasons?.length ? { detail: { reason: reasons[0] } } : {}),
    ...(first === 'rate_limited' ? { detail: { retry_after: 17 } } : {}),
  };
  const retryable = codes.filter((c) => RETRYABLE_ERROR_CODES.includes(c));
  return {
    description: `${codes.map((c) => `\`${c}\``).join(', ')}${retryable.length ? ' (retryable)' : ''}`,
    headers: {
      'X-Request-Id': requestIdHeader,
      ...(codes.includes('rate_limited') ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
    },
    content: { 'application/json': { schema, example } },
  };
}

function operation(route: RouteSpec): Json {
  const parameters = (route.params ?? []).map((p) => ({
    name: p.name,
    in: p.in,
    required: p.in === 'path' ? true : (p.required ?? false),
    description: p.description,
    schema: jsonSchema(p.schema, 'input'),
  }));
  const responses: Json = {};
  const r = route.response;
  responses[String(r.status)] =
    'schema' in r
      ? {
          description: 'Success',
          headers: { 'X-Request-Id': requestIdHeader },
          content: { 'application/json': { schema: jsonSchema(r.schema, 'output'), example: r.example } },
        }
      : {
          description: 'Success',
          headers: { 'X-Request-Id': requestIdHeader },
          content: { [r.contentType]: { schema: { type: 'string' } } },
        };
  if (route.path.startsWith('/widget/')) responses['304'] = { description: 'Not modified (If-None-Match matched the ETag)' };
  const codes: ErrorCode[] = [...route.errors, 'internal_error'];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) byStatus.set(ERROR_STATUS[c], [...(byStatus.get(ERROR_STATUS[c]) ?? []), c]);
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = errorResponse(list, status === 400 ? route.reasons : undefined, 'req_5f0c2a9e7b1d4c3a');
  }
  const body = route.body
    ? 'jpeg' in route.body
      ? {
          required: true,
          content: {
            'image/jpeg': {
              schema: { type: 'string', contentMediaType: 'image/jpeg', minLength: LIMITS.imageMinBytes, maxLength: LIMITS.imageMaxBytes },
            },
          },
        }
      : { required: true, content: { 'application/json': { schema: jsonSchema(route.body.schema, 'input'), example: route.body.example } } }
    : undefined;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.rateLimited ? 'Rate limited (per IP, and per tenant where a key authenticates).' : 'Not rate limited.',
    security: SECURITY[route.auth],
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
    ...(route.reasons?.length ? { 'x-invalid-body-reasons': [...route.reasons] } : {}),
  };
}

function document(title: string, description: string, routes: RouteSpec[], withWebhooks: boolean): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route);
  const schemes = Object.fromEntries(
    Object.entries(SECURITY_SCHEMES).filter(([name]) => routes.some((r) => SECURITY[r.auth].some((s) => name in s))),
  );
  return {
    openapi: '3.1.0',
    info: { title, version: '1.0.0', description, license: { name: 'MIT', identifier: 'MIT' } },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    paths,
    ...(withWebhooks
      ? {
          webhooks: Object.fromEntries(
            WEBHOOK_EVENT_TYPES.map((type) => [
              type,
              {
                post: {
                  operationId: `webhook_${type.replace('.', '_')}`,
                  security: [{ webhookSignature: [] }],
                  summary: `The \`${type}\` event, POSTed to the tenant's webhook URL`,
                  parameters: [
                    {
                      name: HEADERS.signature,
                      in: 'header',
                      required: true,
                      schema: { type: 'string' },
                      description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "t.rawBody">',
                    },
                    { name: HEADERS.event, in: 'header', required: true, schema: { type: 'string', const: type } },
                    { name: HEADERS.eventId, in: 'header', required: true, schema: { type: 'string' } },
                  ],
                  requestBody: {
                    required: true,
                    content: {
                      'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' }, example: { ...ex.webhookEvent, type } },
                    },
                  },
                  responses: { '200': { description: 'Any 2xx acknowledges; anything else is retried' } },
                },
              },
            ]),
          ),
        }
      : {}),
    components: {
      securitySchemes: { ...schemes, ...(withWebhooks ? { webhookSignature: WEBHOOK_SIGNATURE_SCHEME } : {}) },
      headers: {
        XRequestId: { description: 'The id of this request; equal to `requestId` in the body', schema: { type: 'string' } },
        ...(routes.some((r) => r.errors.includes('rate_limited'))
          ? {
              RetryAfter: {
                description: 'Seconds to wait before retrying (also `detail.retry_after`)',
                schema: { type: 'integer', minimum: 0 },
              },
            }
          : {}),
      },
      ...(withWebhooks ? { schemas: { WebhookEvent: jsonSchema(webhookEventSchema, 'output') } } : {}),
    },
  };
}

export function publicOpenApiDocument(): Json {
  return document(
    'Identity verification API',
    'The public API: init, upload, challenge, submit and result, the widget assets, and the webhook events sent to tenants.',
    PUBLIC_ROUTES,
    true,
  );
}

export function adminOpenApiDocument(): Json {
  return document(
    'Identity verification operator API',
    'Tenants, keys, reviews and webhook deliveries, behind ADMIN_TOKEN.',
    ADMIN_ROUTES,
    false,
  );
}
