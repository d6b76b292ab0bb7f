import type { AuditAction, AuditEntry } from '@service/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import type { Database } from '../db/types.js';

export interface Actor {
  userId: string;
  email: string;
  tenantId: string;
}

/** One audit line: who, what, on what, when (the shared clock). Never a secret or an image. */
export async function audit(
  deps: AppDeps,
  actor: Actor,
  action: AuditAction,
  target: string | null,
  detail: Record<string, unknown> | null = null,
  db: Kysely<Database> | Transaction<Database> = deps.db,
): Promise<void> {
  await db
    .insertInto('dashboard_audit_log')
    .values({
      tenant_id: actor.tenantId,
      user_id: actor.userId,
      user_email: actor.email,
      action,
      target,
      detail: detail ? JSON.stringify(detail) : null,
      at: deps.clock.now(),
    })
    .execute();
}

/** The tenant's audit log, newest first; `before` is the id of the last row already shown. */
export async function listAudit(deps: AppDeps, tenantId: string, limit: number, before?: number) {
  let q = deps.db
    .selectFrom('dashboard_audit_log')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (before !== undefined) q = q.where('id', '<', before);
  const rows = await q.execute();
  const page = rows.slice(0, limit);
  const data: AuditEntry[] = page.map((r) => ({
    id: r.id,
    at: r.at.toISOString(),
    userEmail: r.user_email,
    action: r.action as AuditAction,
    target: r.target,
    detail: r.detail,
  }));
  return { data, nextCursor: rows.length > limit ? String(page[page.length - 1]!.id) : null };
}
