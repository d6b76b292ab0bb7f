/**
 * The baseline of `bench:api`: a bare Koa handler doing the same single INSERT that init does,
 * on the same database and pool size, with no auth, limits, validation or logging.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pg from 'pg';
import { newUploadToken, newVerificationId, sha256Hex } from '@service/api/util/ids';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const tenantId = process.env.BENCH_TENANT_ID!;
const app = new Koa();
app.use(async (ctx) => {
  const id = newVerificationId();
  // A named statement, like the service's hot path, so the ceiling is not handicapped.
  const { rows } = await pool.query({
    name: 'bare_insert',
    text: `insert into verifications (id, tenant_id, mode, upload_token_hash, active_liveness, created_at, slots_expire_at, intent_expires_at)
     values ($1, $2, 'live', $3, false, now(), now() + interval '15 minutes', now() + interval '1 hour')
     returning floor(extract(epoch from slots_expire_at))::int as "expiresAt"`,
    values: [id, tenantId, sha256Hex(newUploadToken())],
  });
  ctx.body = { verificationId: id, expiresAt: rows[0].expiresAt };
});
const server = http.createServer(app.callback());
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
