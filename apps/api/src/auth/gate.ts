import { LIMITS, type KeyFamily, type Mode } from '@service/contract';
import { sql, type RawBuilder } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import { tenantKeySql, type RateLimitHit } from '../rate-limit/rate-limiter.js';

/**
 * The gate: the one statement an API-key request starts with. It counts the caller's address,
 * finds the key and judges credits and origin in a single round trip (the reason init is fast);
 * init folds its tenant count and its insert into the same statement. The SQL lives here and only
 * here: authentication judges the typed row, init hands over typed values.
 */

/** What the gate needs: the statement runner and the limiter's upsert. */
export type GatePort = Pick<AppDeps, 'run' | 'limiter'>;

export interface GateCredentials {
  /** The caller's per-IP bucket key (`ipKey(...)`). */
  ipBucket: string;
  /** SHA-256 of a well-formed bearer key; null when there is none (the address is still counted). */
  keyHash: string | null;
  /** `originHostname(Origin)`: null without an Origin, '' when unparsable. */
  originHost: string | null;
}

export interface GateRow extends RateLimitHit {
  keyId: string | null;
  tenantId: string | null;
  family: KeyFamily | null;
  mode: Mode | null;
  keyHash: string | null;
  credits: number | null;
  /** The Origin is absent, the key allows every origin, or it is on the key's list. */
  originOk: boolean | null;
}

/** The intent init creates, inserted only when every check before it passed. */
export interface IntentValues {
  verificationId: string;
  uploadTokenHash: string;
  userRef: string | null;
  submittedFullName: string | null;
  country: string | null;
  documentType: string | null;
  activeLiveness: boolean;
  now: RawBuilder<Date>;
}

export interface IntentGateRow extends GateRow {
  /** The tenant's init bucket after this request; null when an earlier check failed. */
  tenantCount: number | null;
  tenantRetryAfter: number | null;
  /** Unix seconds when the upload slots expire; null when the intent was not inserted. */
  expiresAt: number | null;
}

/** `k`: the key row, with `ok` true when the IP limit, credits and origin all pass. */
function keyCte(c: GateCredentials & { keyHash: string }): RawBuilder<unknown> {
  const origin = sql`${c.originHost}::text`;
  return sql`k as (
    select k.id as "keyId", k.tenant_id as "tenantId", k.family, k.mode, k.key_hash as "keyHash", t.credits,
           (${origin} is null or jsonb_array_length(k.allowed_origins) = 0 or k.allowed_origins ? ${origin}) as "originOk"
    from api_keys k join tenants t on t.id = k.tenant_id
    where k.key_hash = ${c.keyHash} and k.revoked_at is null
  ), ok as (
    select k.*, (ip.count <= ${LIMITS.perIpPerMinute} and k.credits > 0 and k."originOk") as ok from k, ip
  )`;
}

const GATE_COLUMNS = sql`ip.count, ip."retryAfter", ok."keyId", ok."tenantId", ok.family, ok.mode, ok."keyHash", ok.credits, ok."originOk"`;

async function runGate<R extends GateRow>(port: GatePort, c: GateCredentials, statement: (keyHash: string) => RawBuilder<R>): Promise<R> {
  if (!c.keyHash) {
    const hit = await port.limiter.hit(c.ipBucket);
    return { ...hit, keyId: null, tenantId: null, family: null, mode: null, keyHash: null, credits: null, originOk: null } as R;
  }
  const { rows } = await port.run(statement(c.keyHash)).catch(async (err: unknown) => {
    // The failed statement took its IP count with it: a request counts whatever happens to it.
    await port.limiter.hit(c.ipBucket).catch(() => {});
    throw err;
  });
  return rows[0]!;
}

/** Counts the address and looks the key up. */
export function admit(port: GatePort, c: GateCredentials): Promise<GateRow> {
  return runGate(
    port,
    c,
    (keyHash) => sql<GateRow>`with ip as (${port.limiter.hitSql(c.ipBucket)}), ${keyCte({ ...c, keyHash })}
      select ${GATE_COLUMNS} from ip left join ok on true`,
  );
}

/**
 * `admit`, then (only when it passed) the tenant's init count, then (only within that limit) the
 * intent's insert: still one statement.
 */
export function admitAndCreateIntent(port: GatePort, c: GateCredentials, v: IntentValues): Promise<IntentGateRow> {
  return runGate(
    port,
    c,
    (keyHash) => sql<IntentGateRow>`with ip as (${port.limiter.hitSql(c.ipBucket)}), ${keyCte({ ...c, keyHash })},
      tl as (${port.limiter.hitSql(tenantKeySql('init', sql`ok."tenantId"`), sql`from ok where ok.ok`)}),
      ins as (
        insert into verifications
          (id, tenant_id, mode, upload_token_hash, user_ref, submitted_full_name, country, document_type,
           active_liveness, created_at, slots_expire_at, intent_expires_at)
        select ${v.verificationId}, ok."tenantId", ok.mode, ${v.uploadTokenHash}, ${v.userRef},
               ${v.submittedFullName}, ${v.country}, ${v.documentType},
               ${v.activeLiveness}, ${v.now}, ${v.now} + make_interval(secs => ${LIMITS.uploadSlotSeconds}),
               ${v.now} + make_interval(secs => ${LIMITS.intentSeconds})
        from ok join tl on tl.count <= ${LIMITS.perTenantPerMinute.init}
        returning floor(extract(epoch from slots_expire_at))::int as "expiresAt"
      )
      select ${GATE_COLUMNS}, tl.count as "tenantCount", tl."retryAfter" as "tenantRetryAfter", ins."expiresAt"
      from ip left join ok on true left join tl on true left join ins on true`,
  );
}
