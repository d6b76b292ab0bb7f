import type { TenantSummary } from '@service/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';

/** The keyset cursor: the last row's creation time and id (ties broken by id), base64url. */
const encodeCursor = (createdAt: Date, id: string) => Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');
function decodeCursor(cursor: string): { createdAt: Date; id: string } | null {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso ?? '');
  return id && !Number.isNaN(createdAt.getTime()) ? { createdAt, id } : null;
}

/** Tenants newest first, one page; `nextCursor` is null on the last page. Null for a bad cursor. */
export async function listTenants(
  db: Kysely<Database>,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ data: TenantSummary[]; nextCursor: string | null } | null> {
  const after = page.cursor ? decodeCursor(page.cursor) : undefined;
  if (after === null) return null;
  let q = db
    .selectFrom('tenants')
    .select(['id', 'name', 'credits', 'webhook_url', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (after) {
    q = q.where((eb) =>
      eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
    );
  }
  const rows = await q.execute();
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1];
  return {
    data: shown.map((t) => ({
      tenantId: t.id,
      name: t.name,
      credits: t.credits,
      createdAt: t.created_at.toISOString(),
      webhook: t.webhook_url ? { url: t.webhook_url } : null,
    })),
    nextCursor: more && last ? encodeCursor(last.created_at, last.id) : null,
  };
}
