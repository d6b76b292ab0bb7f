#!/usr/bin/env node
/**
 * `npm run admin -- <command>`: a thin CLI over the operator API (/admin/v1). It talks HTTP to a
 * running service, so it works the same against the embedded default and PostgreSQL.
 *
 *   tenants create --name Acme [--credits 100]
 *   tenants list [--limit N] [--cursor C]
 *   tenants get <tenantId>
 *   tenants update <tenantId> [--credits N] [--webhook-url https://... [--webhook-secret-stdin]] [--no-webhook]
 *   webhooks test <tenantId>   (sends a signed `webhook.test` event now and prints the receiver's answer)
 *   keys list <tenantId>
 *   keys create <tenantId> --family publishable|secret --mode live|test [--origins a.com,b.com]
 *   keys update <keyId> --origins a.com,b.com   (empty string clears)
 *   keys revoke <keyId>
 *   review <verificationId> --verdict approved|rejected [--note text]
 *   blob-keys rewrap   (key rotation: re-wraps image data keys of BLOB_ENCRYPTION_KEY_PREVIOUS under BLOB_ENCRYPTION_KEY)
 *   deliveries list <tenantId> [--status failed]
 *   deliveries requeue <deliveryId>
 *   deliveries requeue-failed <tenantId> --since 2026-01-01T00:00:00Z
 *
 * Options: --url (default PUBLIC_BASE_URL or http://127.0.0.1:8080). Secrets never go in the
 * arguments (they would show in `ps` and in npm's own log of the command line): the admin token
 * comes from ADMIN_TOKEN (else the development token saved in DATA_DIR by `npm start`), a webhook
 * secret from SERVICE_WEBHOOK_SECRET or, with --webhook-secret-stdin, from standard input.
 */
import path from 'node:path';
import { text as readAll } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { savedAdminToken } from '../demo/demo-tenant.js';

const USAGE = `usage: npm run admin -- <tenants|keys|review|deliveries|webhooks|blob-keys> <action> [args] [--url URL]
  (the admin token comes from ADMIN_TOKEN, else the development token of npm start)
  tenants create --name NAME [--credits N]
  tenants list [--limit N] [--cursor CURSOR]
  tenants get TENANT_ID
  tenants update TENANT_ID [--credits N] [--webhook-url URL [--webhook-secret-stdin]] [--no-webhook]
      (the webhook secret: SERVICE_WEBHOOK_SECRET, or standard input with --webhook-secret-stdin;
       neither: the current secret is kept)
  webhooks test TENANT_ID
  keys list TENANT_ID
  keys create TENANT_ID --family publishable|secret --mode live|test [--origins host1,host2]
  keys update KEY_ID --origins host1,host2
  keys revoke KEY_ID
  review VERIFICATION_ID --verdict approved|rejected [--note TEXT]
  blob-keys rewrap   (run until "remaining" is 0, after every process runs with the new key)
  deliveries list TENANT_ID [--status pending|delivered|failed]
  deliveries requeue DELIVERY_ID
  deliveries requeue-failed TENANT_ID --since ISO_TIME`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
      name: { type: 'string' },
      credits: { type: 'string' },
      'webhook-url': { type: 'string' },
      'webhook-secret-stdin': { type: 'boolean' },
      'no-webhook': { type: 'boolean' },
      family: { type: 'string' },
      mode: { type: 'string' },
      origins: { type: 'string' },
      verdict: { type: 'string' },
      note: { type: 'string' },
      status: { type: 'string' },
      since: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    return;
  }
  const base = (values.url ?? process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`).replace(/\/+$/, '');
  const token = process.env.ADMIN_TOKEN ?? savedAdminToken(path.resolve(process.env.DATA_DIR ?? './.data'));
  if (!token) fail('No admin token: set ADMIN_TOKEN.');

  const num = (v: string | undefined, name: string) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a whole number >= 0`);
    return n;
  };
  const list = (v: string | undefined) =>
    v === undefined
      ? undefined
      : v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const need = (v: string | undefined, what: string) => v ?? fail(`missing ${what}\n${USAGE}`);

  const [group, action, id] = positionals;
  let method = 'GET';
  let route = '';
  let body: unknown;
  switch (`${group} ${group === 'review' ? '' : action}`.trim()) {
    case 'tenants create':
      [method, route, body] = ['POST', '/admin/v1/tenants', { name: need(values.name, '--name'), credits: num(values.credits, 'credits') }];
      break;
    case 'tenants list': {
      const q = new URLSearchParams();
      if (values.limit) q.set('limit', values.limit);
      if (values.cursor) q.set('cursor', values.cursor);
      route = `/admin/v1/tenants${q.size ? `?${q}` : ''}`;
      break;
    }
    case 'tenants get':
      route = `/admin/v1/tenants/${need(id, 'TENANT_ID')}`;
      break;
    case 'tenants update': {
      const secret = values['webhook-secret-stdin'] ? (await readAll(process.stdin)).trim() : (process.env.SERVICE_WEBHOOK_SECRET ?? '');
      const webhook = values['no-webhook'] ? null : values['webhook-url'] ? { url: values['webhook-url'], secret } : undefined;
      [method, route, body] = ['PATCH', `/admin/v1/tenants/${need(id, 'TENANT_ID')}`, { credits: num(values.credits, 'credits'), webhook }];
      break;
    }
    case 'webhooks test':
      [method, route] = ['POST', `/admin/v1/tenants/${need(id, 'TENANT_ID')}/webhook/test`];
      break;
    case 'keys list':
      route = `/admin/v1/tenants/${need(id, 'TENANT_ID')}/keys`;
      break;
    case 'keys create':
      [method, route, body] = [
        'POST',
        `/admin/v1/tenants/${need(id, 'TENANT_ID')}/keys`,
        { family: need(values.family, '--family'), mode: need(values.mode, '--mode'), allowedOrigins: list(values.origins) },
      ];
      break;
    case 'keys update':
      [method, route, body] = [
        'PATCH',
        `/admin/v1/keys/${need(id, 'KEY_ID')}`,
        { allowedOrigins: list(need(values.origins, '--origins')) },
      ];
      break;
    case 'keys revoke':
      [method, route] = ['POST', `/admin/v1/keys/${need(id, 'KEY_ID')}/revoke`];
      break;
    case 'blob-keys rewrap':
      [method, route] = ['POST', '/admin/v1/blob-keys/rewrap'];
      break;
    case 'review':
      [method, route, body] = [
        'POST',
        `/admin/v1/verifications/${need(action, 'VERIFICATION_ID')}/review`,
        { verdict: need(values.verdict, '--verdict'), note: values.note },
      ];
      break;
    case 'deliveries list':
      route = `/admin/v1/tenants/${need(id, 'TENANT_ID')}/webhook-deliveries${values.status ? `?status=${encodeURIComponent(values.status)}` : ''}`;
      break;
    case 'deliveries requeue':
      [method, route] = ['POST', `/admin/v1/webhook-deliveries/${need(id, 'DELIVERY_ID')}/requeue`];
      break;
    case 'deliveries requeue-failed':
      [method, route, body] = [
        'POST',
        `/admin/v1/tenants/${need(id, 'TENANT_ID')}/webhook-deliveries/requeue`,
        { since: need(values.since, '--since') },
      ];
      break;
    default:
      fail(USAGE);
  }

  let res: Response;
  try {
    res = await fetch(`${base}${route}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (err) {
    fail(`Cannot reach ${base}: ${(err as Error).message}. Is the service running (npm start)?`);
  }
  const text = await res.text();
  let out: unknown = text;
  try {
    out = JSON.parse(text);
  } catch {
    /* keep text */
  }
  console.log(JSON.stringify(out, null, 2));
  if (!res.ok) process.exit(1);
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
