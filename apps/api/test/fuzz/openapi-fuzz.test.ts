import { ERROR_STATUS, errorObjectSchema, HEADERS, LIMITS, type ErrorCode } from '@service/contract';
import { adminOpenApiDocument, publicOpenApiDocument } from '@service/contract/openapi';
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, type TenantKeys } from '../helpers/api-client.js';
import { ADMIN_TOKEN, BACKEND, CLIENT_IP_HEADER, startTestService, type TestService } from '../helpers/test-service.js';

/**
 * Property-based fuzzing driven by the OpenAPI documents: for every documented operation, seeded
 * random requests with malformed and boundary bodies, headers, path segments, tokens and JPEG
 * bytes. Every answer must be below 500, every error the contract's Error object with the
 * request's id, its code one that route documents for that status (and its `detail.reason`, where
 * the route lists reasons, one of them); afterwards the database holds nothing more than the
 * accepted requests created. FUZZ_RUNS sets the number of requests (short pass in npm test; `npm
 * run fuzz` for the long one), FUZZ_BUDGET_MS bounds the time spent sending, FUZZ_SEED the seed.
 * On PostgreSQL; the embedded pass (PGlite) runs a shorter one, the same checks.
 */
const EMBEDDED = BACKEND === 'embedded';
const RUNS = Number(process.env.FUZZ_RUNS ?? (EMBEDDED ? 300 : 1000));
/** Wall-clock budget of the sending (a shared machine varies a lot); at least MIN_RUNS must fit. */
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? (EMBEDDED ? 20_000 : 40_000));
const MIN_RUNS = Math.min(RUNS, 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const CONCURRENCY = 6;

interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string }[];
  body: 'json' | 'jpeg' | null;
  example: unknown;
  /** Documented error answers: status -> codes, and the reasons listed for that status (if any). */
  errors: Map<number, { codes: Set<string>; reasons: Set<string> | null }>;
  /** Matches the paths this operation serves (each `{param}` one segment). */
  pattern: RegExp;
}

/** The codes (`error` enum) and reasons (`detail.reason` enum) a documented error response lists. */
function documentedErrors(responses: Record<string, any>): Operation['errors'] {
  const out: Operation['errors'] = new Map();
  for (const [status, r] of Object.entries(responses)) {
    if (Number(status) < 400) continue;
    const props = r.content?.['application/json']?.schema?.properties ?? {};
    const reasons = props.detail?.properties?.reason?.enum as string[] | undefined;
    out.set(Number(status), { codes: new Set(props.error?.enum ?? []), reasons: reasons ? new Set(reasons) : null });
  }
  return out;
}

function operations(): Operation[] {
  const ops: Operation[] = [];
  for (const doc of [publicOpenApiDocument(), adminOpenApiDocument()] as any[]) {
    for (const [p, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const content = op.requestBody?.content ?? {};
        ops.push({
          method: method.toUpperCase(),
          path: p,
          params: (op.parameters ?? []).map((x: any) => ({ name: x.name, in: x.in })),
          body: content['image/jpeg'] ? 'jpeg' : content['application/json'] ? 'json' : null,
          example: content['application/json']?.example,
          errors: documentedErrors(op.responses ?? {}),
          pattern: new RegExp(`^${p.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        });
      }
    }
  }
  return ops;
}

interface Fixture {
  t: TenantKeys;
  verificationId: string;
  uploadToken: string;
}

/** A request to send, described so a failure prints what to replay. */
interface FuzzCase {
  op: number;
  pathValues: Record<string, string>;
  auth: string | null;
  uploadToken: string | null;
  captureSource: string | null;
  contentType: string | null;
  body: string | Uint8Array | null;
  query: string;
}

const boundaryStrings = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'a'.repeat(LIMITS.userRefMaxLength),
    'a'.repeat(LIMITS.userRefMaxLength + 1),
    'b'.repeat(256),
    'ES',
    'es',
    'ESP',
  ),
  fc.constantFrom(
    'test approve',
    'Test Review',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '😀',
    '../../etc/passwd',
    '%00',
    '<script>',
    "'; drop table tenants;--",
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const boundaryNumbers = fc.oneof(
  fc.constantFrom(0, -1, 1, 2147483647, 2147483648, -2147483649, 9007199254740992, 1e308, -0, 0.5),
  fc.integer(),
  fc.double({ noNaN: true }),
);
const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  boundaryStrings,
  boundaryNumbers,
  fc.boolean(),
  fc.constant(null),
  fc.array(boundaryStrings, { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

function mutate(example: unknown): fc.Arbitrary<unknown> {
  if (!example || typeof example !== 'object' || Array.isArray(example)) return jsonValue;
  const keys = Object.keys(example);
  return fc.record(
    Object.fromEntries(
      keys.map((k) => {
        const v = (example as Record<string, unknown>)[k];
        return [
          k,
          fc.oneof(
            { weight: 3, arbitrary: fc.constant(v) },
            { weight: 2, arbitrary: jsonValue },
            v && typeof v === 'object' ? mutate(v) : jsonValue,
          ),
        ];
      }),
    ),
    { requiredKeys: [] },
  );
}

function caseArbitrary(ops: Operation[], fx: () => Fixture): fc.Arbitrary<FuzzCase> {
  return fc.integer({ min: 0, max: ops.length - 1 }).chain((opIndex) => {
    const op = ops[opIndex]!;
    const f = fx();
    const segment = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(f.verificationId, f.t.tenantId, 'doc-front', 'selfie', 'liveness-1-1', 'liveness-anchor') },
      { weight: 2, arbitrary: boundaryStrings.map((s) => percentEncode(s) || 'x') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '%00',
          '%ZZ',
          '..',
          '%2e%2e',
          'vf_' + 'A'.repeat(16),
          'vf_' + 'A'.repeat(25),
          'x'.repeat(3000),
          '%F0%9F',
          '%ED%A0%80',
        ),
      },
    );
    const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const pathValues = fc.record(Object.fromEntries(names.map((n) => [n, segment])));
    const token = fc.oneof(
      fc.constant(null),
      fc.constantFrom(f.t.keys.publishableTest, f.t.keys.secretTest, f.t.keys.publishable, f.t.keys.secret, ADMIN_TOKEN),
      fc.constantFrom('qv_sect_' + 'A'.repeat(16), 'qv_pub_short', 'qv_sec_' + 'x'.repeat(65), ''),
      fc.string({ maxLength: 80 }),
    );
    const jsonBody: fc.Arbitrary<string | Uint8Array | null> = fc.oneof(
      { weight: 4, arbitrary: mutate(op.example).map((v) => JSON.stringify(v) ?? 'null') },
      { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
      { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
      { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":', '[]', 'null', '{"__proto__":{"x":1}}', '{"verificationId":"\\u0000"}') },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
    );
    const jpegBody: fc.Arbitrary<string | Uint8Array | null> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.tuple(fc.constantFrom(0, 2, 3, 99, 100, 101, 500, 2048), fc.uint8Array({ maxLength: 1 })).map(([n]) => {
          const b = new Uint8Array(n).map(() => (Math.random() * 256) | 0);
          if (n >= 3) b.set([0xff, 0xd8, 0xff]);
          return b;
        }),
      },
      { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }) },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constant(new Uint8Array(LIMITS.imageMaxBytes + 1).fill(0xff)) },
    );
    return fc.record({
      op: fc.constant(opIndex),
      pathValues,
      auth: token,
      uploadToken: fc.oneof(fc.constant(f.uploadToken), fc.constant(null), fc.string({ maxLength: 50 }), fc.constant('x'.repeat(5000))),
      captureSource: fc.oneof(fc.constantFrom('camera', 'upload', null, 'CAMERA', ''), fc.string({ maxLength: 10 })),
      contentType: fc.constantFrom(
        'application/json',
        'image/jpeg',
        'text/plain',
        null,
        'application/json; charset=utf-16',
        'multipart/form-data',
      ),
      body: op.body === 'jpeg' ? jpegBody : op.body === 'json' ? jsonBody : fc.oneof(fc.constant(null), jsonBody),
      query: fc.oneof(
        fc.constant(''),
        fc.constantFrom(
          '?status=failed',
          '?status=%00',
          '?status=bogus',
          '?limit=0',
          '?limit=-5',
          '?limit=999999999999',
          '?limit=abc',
          '?a=1&a=2',
        ),
      ),
    });
  });
}

/** Every byte of the UTF-8 form percent-encoded (lone surrogates too, as U+FFFD). */
const percentEncode = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');
const headerSafe = (s: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(s);

describe('OpenAPI-driven fuzzing', () => {
  let svc: TestService;
  let api: Api;
  let fixture: Fixture;
  const created = { tenants: 1, keys: 4, verifications: 0, uploads: 0 };
  const counts = { requests: 0, byStatus: {} as Record<string, number>, failures: 0, sendingSeconds: 0 };

  async function freshFixture(t: TenantKeys): Promise<Fixture> {
    const init = await api.init(t.keys.publishableTest, { activeLiveness: true });
    expect(init.status).toBe(200);
    created.verifications += 1;
    return { t, verificationId: init.body.verificationId, uploadToken: init.body.uploads.selfie.headers['X-Service-Upload-Token'] };
  }

  beforeAll(async () => {
    svc = await startTestService();
    api = new Api(svc.url);
    fixture = await freshFixture(await api.tenant(1_000_000));
  }, 60_000);

  afterAll(async () => {
    if (process.env.FUZZ_REPORT) {
      const report = path.resolve(process.env.FUZZ_REPORT);
      fs.mkdirSync(path.dirname(report), { recursive: true });
      fs.writeFileSync(report, JSON.stringify({ seed: SEED, ...counts }, null, 2));
    }
    await svc?.close();
  });

  it(
    `answers up to ${RUNS} seeded random requests with no 5xx, each error a contract error with its requestId, nothing stored when rejected`,
    async () => {
      const ops = operations();
      const failures: string[] = [];
      let ip = 0;
      const send = async (c: FuzzCase) => {
        const op = ops[c.op]!;
        const p = op.path.replace(/\{([^}]+)\}/g, (_, n: string) => c.pathValues[n] ?? 'x') + c.query;
        const headers: Record<string, string> = { [CLIENT_IP_HEADER]: `fuzz-${ip++}` };
        if (c.auth !== null && headerSafe(c.auth)) headers.Authorization = `Bearer ${c.auth}`;
        if (c.uploadToken !== null && headerSafe(c.uploadToken)) headers[HEADERS.uploadToken] = c.uploadToken;
        if (c.captureSource !== null && headerSafe(c.captureSource)) headers[HEADERS.captureSource] = c.captureSource;
        if (c.contentType) headers['Content-Type'] = c.contentType;
        const withBody = c.body !== null && op.method !== 'GET';
        let res: Response;
        try {
          res = await fetch(`${svc.url}${p}`, { method: op.method, headers, ...(withBody ? { body: c.body } : {}) } as RequestInit);
        } catch (err) {
          failures.push(`no answer (crash?) ${op.method} ${p}: ${(err as Error).message}`);
          return;
        }
        const text = await res.text();
        counts.requests += 1;
        counts.byStatus[res.status] = (counts.byStatus[res.status] ?? 0) + 1;
        const describe = () =>
          `${res.status} ${op.method} ${p.slice(0, 200)} ${text.slice(0, 300)} case=${JSON.stringify({ ...c, body: typeof c.body === 'string' ? c.body.slice(0, 200) : c.body ? `<${c.body.length} bytes>` : null })}`;
        if (res.status >= 500) return void failures.push(describe());
        if (res.status < 400) {
          if (op.method === 'POST' && op.path === '/admin/v1/tenants') {
            created.tenants += 1;
            created.keys += 4;
          }
          if (op.method === 'POST' && op.path === '/admin/v1/tenants/{tenantId}/keys') created.keys += 1;
          if (op.path === '/v1/verify/init') created.verifications += 1;
          if (op.method === 'PUT') created.uploads += 1;
          return;
        }
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return void failures.push(`not JSON: ${describe()}`);
        }
        const parsed = errorObjectSchema.safeParse(body);
        if (!parsed.success || !(parsed.data.error in ERROR_STATUS)) return void failures.push(`not a contract error: ${describe()}`);
        if (ERROR_STATUS[parsed.data.error as ErrorCode] !== res.status) return void failures.push(`status/code disagree: ${describe()}`);
        // The route's own documented list, where the request reached that route: a path whose
        // segments the fuzz made another route's ('..' is resolved by the URL) or none's (404
        // `not_found`) is not this route's answer, nor is the guard every request passes before
        // routing (a path or query that is not valid percent-encoded UTF-8, or holds NUL: 400
        // `invalid_body` on `_path` or `_query`, which the documents do not list per route).
        const documented = op.errors.get(res.status);
        const reached = op.pattern.test(new URL(`${svc.url}${p}`).pathname);
        const guard =
          parsed.data.error === 'invalid_body' &&
          Object.keys((parsed.data.detail as { fieldErrors?: object } | undefined)?.fieldErrors ?? {}).every(
            (k) => k === '_path' || k === '_query',
          );
        const unrouted = res.status === 404 && parsed.data.error === 'not_found';
        if (reached && !guard && !unrouted && !documented?.codes.has(parsed.data.error))
          return void failures.push(`${parsed.data.error} not documented for ${res.status} on ${op.method} ${op.path}: ${describe()}`);
        const reason = (parsed.data.detail as { reason?: unknown } | undefined)?.reason;
        if (reached && typeof reason === 'string' && documented?.reasons && !documented.reasons.has(reason))
          return void failures.push(`reason ${reason} not documented on ${op.method} ${op.path}: ${describe()}`);
        if (parsed.data.requestId !== res.headers.get(HEADERS.requestId))
          failures.push(`requestId differs from X-Request-Id: ${describe()}`);
      };

      const chunk = 60;
      const started = Date.now();
      for (
        let done = 0, round = 0;
        done < RUNS && failures.length < 20 && (done < MIN_RUNS || Date.now() - started < BUDGET_MS);
        done += chunk, round += 1
      ) {
        // A new rate window every chunk (the limits hold, the fuzz still reaches validation), and
        // a fresh intent every so often (the clock moves an hour in 60 chunks).
        svc.clock.advance(61);
        if (round % 40 === 39) fixture = await freshFixture(fixture.t);
        const cases = fc.sample(
          caseArbitrary(ops, () => fixture),
          { seed: SEED + round, numRuns: Math.min(chunk, RUNS - done) },
        );
        for (let i = 0; i < cases.length; i += CONCURRENCY) await Promise.all(cases.slice(i, i + CONCURRENCY).map(send));
      }
      counts.failures = failures.length;
      counts.sendingSeconds = Math.round((Date.now() - started) / 1000);
      expect(failures, failures.join('\n')).toEqual([]);
      expect(counts.requests).toBeGreaterThanOrEqual(MIN_RUNS);

      // Nothing stored by a rejected request: the rows are exactly what accepted requests made.
      const db = svc.deps.db;
      const n = async (table: 'tenants' | 'api_keys' | 'verifications' | 'verification_uploads') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await n('tenants')).toBe(created.tenants);
      expect(await n('api_keys')).toBe(created.keys);
      expect(await n('verifications')).toBe(created.verifications);
      expect(await n('verification_uploads')).toBeLessThanOrEqual(created.uploads);
    },
    Number(process.env.FUZZ_TIMEOUT_MS ?? 85_000),
  );
});
