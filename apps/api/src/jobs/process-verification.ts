import { type FailureCode, LIMITS, LIVENESS_ANCHOR_ROLE, slotKey, slotOf, stepFrameRoles, type DocumentType } from '@service/contract';
import type { AppDeps } from '../app-deps.js';
import type { Verification } from '../db/types.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { IsolatedPipeline, PipelineUnavailableError } from '../pipeline-runner/isolated-pipeline.js';
import type { TenantGate } from '../pipeline-runner/tenant-gate.js';
import { QUEUES, type JobHandler, type JobInfo } from '../queue/job-queue.js';
import type { VerificationJob } from '../queue/queues.js';
import { PermanentPipelineError, type PipelineRequest, type VerificationImages, type VerificationPipeline } from '../pipeline/pipeline.js';
import { completeVerification, failVerification } from '../verifications/finish.js';
import { BlobStoreUnavailableError } from '../storage/blob-store.js';
import { forcedOutcome } from './forced-verdict.js';

const PIPELINE_ERROR: FailureCode = 'pipeline_error';

export type { VerificationJob };

function pipelineRequest(v: Verification): PipelineRequest {
  return { documentType: v.document_type as DocumentType | null, submittedFullName: v.submitted_full_name, country: v.country };
}

async function loadImages(deps: AppDeps, v: Verification): Promise<VerificationImages> {
  const get = (role: string) => deps.blobs.get(slotKey(v.tenant_id, v.id, role));
  // Fetched together: on an S3 store each is a round trip.
  const [docFront, selfie, docBack] = await Promise.all([
    get(slotOf('docFront')),
    get(slotOf('selfie')),
    v.with_doc_back ? get(slotOf('docBack')) : Promise.resolve(null),
  ]);
  if (!docFront) throw new PermanentPipelineError('doc_front_disappeared', 'The document front image is gone');
  if (!selfie) throw new PermanentPipelineError('selfie_disappeared', 'The selfie image is gone');
  let liveness: VerificationImages['liveness'] = null;
  if (v.active_liveness) {
    const anchor = await get(LIVENESS_ANCHOR_ROLE);
    const stepRows = await deps.db
      .selectFrom('liveness_steps')
      .select(['step', 'pose'])
      .where('verification_id', '=', v.id)
      .orderBy('step')
      .execute();
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

export interface VerificationJobOptions {
  /** Per-tenant cap on pipeline runs in this process; a job over it is deferred. */
  gate?: TenantGate;
  /** Seconds a job may run before the queue presumes it lost (its expiry): the run ends before. */
  jobSeconds?: number;
  /** Seconds a deferred job waits before it is fetched again. */
  deferSeconds?: number;
  /** Seconds before a job whose image store was unreachable runs again (default 10). */
  storeDeferSeconds?: number;
}

/** Waits for a free pipeline process (each up to the job's time) before the verification fails. */
const MAX_UNAVAILABLE = 20;
/** An unreachable image store is waited for up to 90 x 10 s = 15 minutes. */
const MAX_STORE_UNAVAILABLE = 90;
const STORE_DEFER_SECONDS = 10;

/** What is left of the job's time after the final writes' margin. */
const DEADLINE_MARGIN_MS = 2_000;

/**
 * queued -> processing -> completed | failed. Safe to run twice: the claim and the final write are
 * conditional on the status, so a retried job neither reports nor charges twice.
 */
export function processVerificationJob(
  deps: AppDeps,
  pipeline: VerificationPipeline,
  opts: VerificationJobOptions = {},
): JobHandler<VerificationJob> {
  const handle = claimAndRun(deps, pipeline);
  return async (data, job) => {
    const started = Date.now();
    const row = await deps.db
      .selectFrom('verifications')
      .select(['tenant_id', 'status', 'mode', 'submitted_full_name'])
      .where('id', '=', data.verificationId)
      .executeTakeFirst();
    if (!row || (row.status !== 'queued' && row.status !== 'processing')) return;
    const gate = forcedOutcome(row) ? undefined : opts.gate;
    if (gate && !gate.tryEnter(row.tenant_id)) {
      // The tenant already runs its share: a new job later, not a retry (it spends no attempt).
      await deps.queue.sendInTransaction(deps.db, QUEUES.verification, data, { startAfterSeconds: opts.deferSeconds ?? 2 });
      return;
    }
    try {
      await handle(data, job, opts.jobSeconds ? started + opts.jobSeconds * 1000 - DEADLINE_MARGIN_MS : undefined);
    } catch (err) {
      // Not this verification's fault, so it waits again without spending an attempt; bounded, so
      // a store gone for good or a pipeline that never comes up ends in `failed`.
      const waitAgain = async (count: 'storeUnavailable' | 'unavailable', max: number, seconds: number) => {
        const n = (data[count] ?? 0) + 1;
        if (n > max) await failVerification(deps, data.verificationId, PIPELINE_ERROR);
        else await deps.queue.sendInTransaction(deps.db, QUEUES.verification, { ...data, [count]: n }, { startAfterSeconds: seconds });
      };
      // The image store is unreachable: the images are safe there.
      if (err instanceof BlobStoreUnavailableError)
        await waitAgain('storeUnavailable', MAX_STORE_UNAVAILABLE, opts.storeDeferSeconds ?? STORE_DEFER_SECONDS);
      // No pipeline process was free in time (others' runs, a replacement loading its models).
      else if (err instanceof PipelineUnavailableError) await waitAgain('unavailable', MAX_UNAVAILABLE, opts.deferSeconds ?? 2);
      else throw err;
    } finally {
      gate?.leave(row.tenant_id);
    }
  };
}

function claimAndRun(deps: AppDeps, pipeline: VerificationPipeline) {
  return async ({ verificationId }: VerificationJob, job: JobInfo, deadline: number | undefined) => {
    const v = await deps.db
      .updateTable('verifications')
      .set({ status: 'processing' })
      .where('id', '=', verificationId)
      .where('status', 'in', ['queued', 'processing'])
      .returningAll()
      .executeTakeFirst();
    if (!v) return; // already final

    try {
      const outcome =
        forcedOutcome(v) ??
        (pipeline instanceof IsolatedPipeline
          ? await pipeline.run(pipelineRequest(v), await loadImages(deps, v), deadline)
          : await pipeline.run(pipelineRequest(v), await loadImages(deps, v)));
      await completeVerification(deps, v.id, outcome);
    } catch (err) {
      // The database went away, not the pipeline: the queue waits for it and runs the job again.
      if (isDatabaseUnavailable(err)) throw err;
      if (err instanceof PipelineUnavailableError || err instanceof BlobStoreUnavailableError) throw err; // deferred by the caller
      if (err instanceof PermanentPipelineError) {
        await failVerification(deps, v.id, err.code);
        return;
      }
      if (job.retryCount >= job.retryLimit) {
        await failVerification(deps, v.id, PIPELINE_ERROR);
        return;
      }
      throw err; // pg-boss retries with backoff
    }
  };
}

/**
 * A verification job that failed for good (its last attempt threw, or expired because its
 * process died) arrives here through the queue's dead letter: the verification ends `failed`
 * with `verification.failed` instead of staying `processing`.
 */
export function verificationFailedForGood(deps: AppDeps): JobHandler<VerificationJob> {
  return async ({ verificationId }) => {
    await failVerification(deps, verificationId, PIPELINE_ERROR);
  };
}
