import {
  DOCUMENT_ROLES,
  LIVENESS_ANCHOR_ROLE,
  parseRole,
  slotKey,
  type FieldsExtracted,
  type Scores,
  type TimelineEntry,
  type VerificationDetail,
  type VerificationSummary,
  type verificationListQuerySchema,
} from '@service/contract';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { AppDeps } from '../app-deps.js';
import type { Verification } from '../db/types.js';
import { ApiError, verificationNotFound } from '../http/api-error.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const awaitingReview = (v: Pick<Verification, 'status' | 'verdict' | 'review_decision'>) =>
  v.status === 'completed' && v.verdict === 'review' && v.review_decision === null;

function summary(v: Verification): VerificationSummary {
  return {
    verificationId: v.id,
    mode: v.mode,
    status: v.status,
    verdict: v.status === 'completed' ? v.verdict : null,
    reasons: v.reasons ?? [],
    createdAt: v.created_at.toISOString(),
    completedAt: iso(v.completed_at),
    awaitingReview: awaitingReview(v),
  };
}

/** One page of the tenant's verifications of one mode, newest first (keyset paging on created_at, id). */
export async function listVerifications(deps: AppDeps, tenantId: string, query: z.output<typeof verificationListQuerySchema>) {
  let q = deps.db
    .selectFrom('verifications')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('mode', '=', query.mode)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.verdict) q = q.where('verdict', '=', query.verdict);
  if (query.awaitingReview !== undefined) {
    const cond = sql<boolean>`(status = 'completed' and verdict = 'review' and review_decision is null)`;
    q = q.where(query.awaitingReview ? cond : sql<boolean>`not ${cond}`);
  }
  if (query.cursor) {
    const c = await deps.db
      .selectFrom('verifications')
      .select(['created_at', 'id'])
      .where('id', '=', query.cursor)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    if (c) q = q.where(sql<boolean>`(created_at, id) < (${c.created_at}, ${c.id})`);
  }
  const rows = await q.execute();
  const page = rows.slice(0, query.limit);
  return { data: page.map(summary), nextCursor: rows.length > query.limit ? page[page.length - 1]!.id : null };
}

/** A verification of this tenant (either mode), or 404 `verification_not_found`: other tenants' ids look unknown. */
export async function tenantVerification(deps: AppDeps, tenantId: string, id: string): Promise<Verification> {
  const v = await deps.db.selectFrom('verifications').selectAll().where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  if (!v) throw verificationNotFound();
  return v;
}

const EVENT_LABELS: Record<string, string> = {
  'verification.approved': 'Webhook: approved',
  'verification.rejected': 'Webhook: rejected',
  'verification.needs_review': 'Webhook: needs review',
  'verification.reviewed': 'Webhook: reviewed',
  'verification.failed': 'Webhook: failed',
};

/** Everything a reviewer needs: scores, reasons, fields next to the typed name, images, liveness steps, timeline. */
export async function verificationDetail(deps: AppDeps, tenantId: string, id: string): Promise<VerificationDetail> {
  const v = await tenantVerification(deps, tenantId, id);
  const [uploads, steps, events] = await Promise.all([
    deps.db
      .selectFrom('verification_uploads')
      .select(['role', 'uploaded_at'])
      .where('verification_id', '=', v.id)
      .orderBy('uploaded_at')
      .execute(),
    deps.db.selectFrom('liveness_steps').select(['step', 'pose']).where('verification_id', '=', v.id).orderBy('step').execute(),
    deps.db
      .selectFrom('webhook_events as e')
      .leftJoin('webhook_deliveries as d', 'd.event_id', 'e.id')
      .select(['e.id', 'e.type', 'e.created_at', 'd.status', 'd.attempts', 'd.last_status_code'])
      .where('e.verification_id', '=', v.id)
      .where('e.tenant_id', '=', tenantId)
      .orderBy('e.created_at')
      .execute(),
  ]);
  const roles = uploads.map((u) => u.role);
  const timeline: TimelineEntry[] = [{ at: v.created_at.toISOString(), kind: 'state', label: 'Created', detail: null }];
  if (v.submitted_at) timeline.push({ at: v.submitted_at.toISOString(), kind: 'state', label: 'Submitted', detail: null });
  if (v.completed_at) {
    const first = v.review_decision ? 'review' : v.verdict;
    timeline.push({
      at: v.completed_at.toISOString(),
      kind: 'state',
      label: v.status === 'failed' ? 'Failed' : 'Completed',
      detail: v.status === 'failed' ? (v.failure_code ?? null) : `verdict: ${first ?? 'none'}`,
    });
  }
  for (const e of events) {
    timeline.push({
      at: e.created_at.toISOString(),
      kind: 'webhook',
      label: EVENT_LABELS[e.type] ?? e.type,
      detail: e.status
        ? `delivery ${e.status}, ${e.attempts} attempt(s)${e.last_status_code ? `, last HTTP ${e.last_status_code}` : ''}`
        : 'no webhook URL set',
    });
  }
  if (v.reviewed_at && v.review_decision) {
    timeline.push({ at: v.reviewed_at.toISOString(), kind: 'review', label: `Reviewed: ${v.review_decision}`, detail: v.review_note });
  }
  // Continue on a phone: when a phone claimed the desktop's link (routes/handoff.ts).
  const claims = await deps.db
    .selectFrom('handoff_codes')
    .select('claimed_at')
    .where('verification_id', '=', v.id)
    .where('claimed_at', 'is not', null)
    .orderBy('claimed_at')
    .execute();
  for (const c of claims)
    timeline.push({ at: c.claimed_at!.toISOString(), kind: 'state', label: 'Continued on another device', detail: null });
  if (v.redacted_at) timeline.push({ at: v.redacted_at.toISOString(), kind: 'state', label: 'Redacted on request', detail: null });
  if (v.images_deleted_at && !v.redacted_at) {
    timeline.push({ at: v.images_deleted_at.toISOString(), kind: 'state', label: 'Images deleted (retention)', detail: null });
  }
  if (v.personal_data_erased_at && !v.redacted_at) {
    timeline.push({ at: v.personal_data_erased_at.toISOString(), kind: 'state', label: 'Personal data erased (retention)', detail: null });
  }
  timeline.sort((a, b) => a.at.localeCompare(b.at));
  // Upload rows outlive their images: once deleted, there is nothing to show.
  const stored = v.images_deleted_at ? [] : roles;
  return {
    ...summary(v),
    scores: (v.scores as Scores | null) ?? null,
    fieldsExtracted: (v.fields_extracted as FieldsExtracted | null) ?? null,
    submittedFullName: v.submitted_full_name,
    documentType: v.document_type,
    country: v.country,
    activeLiveness: v.active_liveness,
    review:
      v.review_decision && v.reviewed_at
        ? { decision: v.review_decision, decidedAt: v.reviewed_at.toISOString(), note: v.review_note }
        : null,
    images: stored.filter((r) => (DOCUMENT_ROLES as readonly string[]).includes(r) || r === LIVENESS_ANCHOR_ROLE),
    livenessSteps: steps.map((s) => ({
      step: s.step,
      pose: s.pose,
      frames: stored.filter((r) => r.startsWith(`liveness-${s.step}-`)),
    })),
    timeline,
    redactedAt: v.redacted_at?.toISOString() ?? null,
    imagesDeletedAt: v.images_deleted_at?.toISOString() ?? null,
    personalDataErasedAt: v.personal_data_erased_at?.toISOString() ?? null,
  };
}

/** The bytes of one stored image of this tenant's verification, or 404. */
export async function verificationImage(deps: AppDeps, tenantId: string, id: string, role: string): Promise<Buffer> {
  const v = await tenantVerification(deps, tenantId, id);
  if (!parseRole(role)) throw new ApiError('not_found', 'Image not found');
  const uploaded = await deps.db
    .selectFrom('verification_uploads')
    .select('role')
    .where('verification_id', '=', v.id)
    .where('role', '=', role)
    .executeTakeFirst();
  const bytes = uploaded ? await deps.blobs.get(slotKey(v.tenant_id, v.id, role)) : null;
  if (!bytes) throw new ApiError('not_found', 'Image not found');
  return bytes;
}
