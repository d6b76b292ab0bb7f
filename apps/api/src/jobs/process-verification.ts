import { LIMITS, LIVENESS_ANCHOR_ROLE, slotKey, stepFrameRoles } from '@service/contract';
import type { AppDeps } from '../app-deps.js';
import type { Verification } from '../db/types.js';
import type { JobHandler } from '../queue/job-queue.js';
import { PermanentPipelineError, type VerificationImages, type VerificationPipeline } from '../pipeline/pipeline.js';
import { completeVerification, failVerification } from '../verifications/finish.js';
import { forcedOutcome } from './forced-verdict.js';

export interface VerificationJob {
  verificationId: string;
}

async function loadImages(deps: AppDeps, v: Verification): Promise<VerificationImages> {
  const get = (role: string) => deps.blobs.get(slotKey(v.tenant_id, v.id, role));
  const docFront = await get('doc-front');
  if (!docFront) throw new PermanentPipelineError('doc_front_disappeared', 'The document front image is gone');
  const selfie = await get('selfie');
  if (!selfie) throw new PermanentPipelineError('selfie_disappeared', 'The selfie image is gone');
  const docBack = v.with_doc_back ? await get('doc-back') : null;
  let liveness: VerificationImages['liveness'] = null;
  if (v.active_liveness) {
    const anchor = await get(LIVENESS_ANCHOR_ROLE);
    const stepRows = await deps.db.selectFrom('liveness_steps').select(['step', 'pose']).where('verification_id', '=', v.id).orderBy('step').execute();
    const steps = [];
    for (const s of stepRows.filter((r) => r.step <= LIMITS.livenessSteps)) {
      const frames = await Promise.all(stepFrameRoles(s.step).map(get));
      if (frames.some((f) => !f)) throw new PermanentPipelineError('liveness_frames_disappeared', 'A liveness frame is gone');
      steps.push({ step: s.step, pose: s.pose, frames: frames as Buffer[] });
    }
    if (!anchor) throw new PermanentPipelineError('liveness_frames_disappeared', 'The liveness anchor is gone');
    liveness = { anchor, steps };
  }
  return { docFront, docBack, selfie, liveness };
}

/**
 * queued -> processing -> completed | failed. Safe to run twice: the claim and the final write are
 * conditional on the status, so a retried job neither reports nor charges twice.
 */
export function processVerificationJob(deps: AppDeps, pipeline: VerificationPipeline): JobHandler<VerificationJob> {
  return async ({ verificationId }, job) => {
    const v = await deps.db
      .updateTable('verifications')
      .set({ status: 'processing' })
      .where('id', '=', verificationId)
      .where('status', 'in', ['queued', 'processing'])
      .returningAll()
      .executeTakeFirst();
    if (!v) return; // already final

    try {
      const outcome = forcedOutcome(v) ?? (await pipeline.run(v, await loadImages(deps, v)));
      await completeVerification(deps, v.id, outcome);
    } catch (err) {
      if (err instanceof PermanentPipelineError) {
        await failVerification(deps, v.id, err.code);
        return;
      }
      if (job.retryCount >= job.retryLimit) {
        await failVerification(deps, v.id, 'pipeline_error');
        return;
      }
      throw err; // pg-boss retries with backoff
    }
  };
}
