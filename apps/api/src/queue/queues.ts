/**
 * The queues and what each job carries: the payload type follows the queue name, so a job sent to
 * the wrong queue, or a handler reading a field its queue does not carry, does not compile.
 */
export const QUEUES = {
  /** One job per submitted verification: runs the pipeline (or a test-mode verdict). */
  verification: 'verification-process',
  /** Dead letter of `verification`: a job that failed for good ends its verification `failed`. */
  verificationFailed: 'verification-failed',
  /** One job per webhook delivery attempt. */
  webhook: 'webhook-deliver',
  /** Periodic upkeep (old rate-limit buckets), at most one job per period across every process. */
  housekeeping: 'housekeeping',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface VerificationJob {
  verificationId: string;
  /** Times no pipeline process was free before the job's deadline. */
  unavailable?: number;
  /** Times the image store could not be reached. */
  storeUnavailable?: number;
}

export interface DeliveryJob {
  deliveryId: string;
}

export interface HousekeepingJob {
  task: 'prune-rate-limits' | 'retention';
}

export interface QueuePayloads {
  [QUEUES.verification]: VerificationJob;
  [QUEUES.verificationFailed]: VerificationJob;
  [QUEUES.webhook]: DeliveryJob;
  [QUEUES.housekeeping]: HousekeepingJob;
}
