import type Router from '@koa/router';
import { LIMITS, LIVENESS_POSES, stepFrameRoles, type ChallengeBeacon, type LivenessPose } from '@service/contract';
import { randomInt } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import { ipLimit } from '../auth/authenticate.js';
import { requireUploadToken } from '../auth/upload-token.js';
import type { Database } from '../db/types.js';
import { invalidBody } from '../http/api-error.js';
import { route, type ResponseBody } from '../http/route.js';
import { newNonce } from '../util/ids.js';

interface StepRow {
  step: number;
  pose: string;
  nonce: string;
  expiresAt: number;
  expired: boolean;
}

/**
 * GET /v1/verify/challenge/:verificationId/next: the next liveness beacon. Asking again before
 * the step's four frames arrived returns the same beacon; once it expired unanswered, the step is
 * issued afresh (new pose, nonce and window) and its stale frames are dropped.
 */
export function registerChallenge(router: Router, deps: AppDeps): void {
  route(router, 'GET /v1/verify/challenge/:verificationId/next', ipLimit(deps), requireUploadToken(deps), async (ctx) => {
    const { verification: v } = ctx.state.intent!;
    if (!v.active_liveness) throw invalidBody('no_active_challenge', 'This verification did not opt into active liveness');
    if (v.status !== null) throw invalidBody('already_submitted', 'This verification was already submitted');

    const beacon = await deps.db.transaction().execute(async (trx) => {
      const locked = await trx
        .selectFrom('verifications')
        .select('liveness_steps_issued')
        .where('id', '=', v.id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const current = locked.liveness_steps_issued;
      if (current === 0) return issueStep(deps, trx, v.id, 1);
      const step = await readStep(deps, trx, v.id, current);
      const frames = await countFrames(trx, v.id, current);
      if (frames < LIMITS.livenessBurst) {
        if (!step.expired) return step;
        await trx
          .deleteFrom('verification_uploads')
          .where('verification_id', '=', v.id)
          .where('role', 'in', stepFrameRoles(current))
          .execute();
        return issueStep(deps, trx, v.id, current);
      }
      if (current >= LIMITS.livenessSteps) return null;
      return issueStep(deps, trx, v.id, current + 1);
    });

    const body: ResponseBody<ChallengeBeacon> = beacon
      ? {
          verificationId: v.id,
          step: beacon.step,
          totalSteps: LIMITS.livenessSteps,
          pose: beacon.pose as LivenessPose,
          burst: LIMITS.livenessBurst,
          roles: stepFrameRoles(beacon.step),
          nonce: beacon.nonce,
          expiresAt: beacon.expiresAt,
          done: false,
        }
      : { verificationId: v.id, done: true };
    ctx.body = body;
  });
}

async function readStep(deps: AppDeps, trx: Transaction<Database>, verificationId: string, step: number): Promise<StepRow> {
  return trx
    .selectFrom('liveness_steps')
    .select(['step', 'pose', 'nonce'])
    .select([
      sql<number>`floor(extract(epoch from expires_at))::int`.as('expiresAt'),
      sql<boolean>`${deps.clock.now()} > expires_at`.as('expired'),
    ])
    .where('verification_id', '=', verificationId)
    .where('step', '=', step)
    .executeTakeFirstOrThrow();
}

async function countFrames(trx: Transaction<Database>, verificationId: string, step: number): Promise<number> {
  const row = await trx
    .selectFrom('verification_uploads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('verification_id', '=', verificationId)
    .where('role', 'in', stepFrameRoles(step))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Issues (or re-issues) a step: a random pose that no other step of this challenge asks for (four
 * steps, four poses: a random order), a fresh nonce, a short window. Distinct poses keep one
 * picture from serving two steps, which voids both (`pipeline/liveness.ts`).
 */
async function issueStep(deps: AppDeps, trx: Transaction<Database>, verificationId: string, step: number): Promise<StepRow> {
  const taken = await trx
    .selectFrom('liveness_steps')
    .select('pose')
    .where('verification_id', '=', verificationId)
    .where('step', '!=', step)
    .execute();
  const free = LIVENESS_POSES.filter((p) => !taken.some((t) => t.pose === p));
  const choices = free.length ? free : LIVENESS_POSES;
  const pose = choices[randomInt(choices.length)]!;
  const now = deps.clock.now();
  const values = {
    verification_id: verificationId,
    step,
    pose,
    nonce: newNonce(),
    issued_at: now,
    expires_at: sql<Date>`${now} + make_interval(secs => ${LIMITS.livenessBeaconSeconds})`,
  };
  await trx
    .insertInto('liveness_steps')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['verification_id', 'step']).doUpdateSet({ pose, nonce: values.nonce, issued_at: now, expires_at: values.expires_at }),
    )
    .execute();
  await trx.updateTable('verifications').set({ liveness_steps_issued: step }).where('id', '=', verificationId).execute();
  return { ...(await readStep(deps, trx, verificationId, step)), expired: false };
}
