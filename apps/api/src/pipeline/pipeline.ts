import type { FieldsExtracted, Scores, Verdict } from '@service/contract';
import type { Verification } from '../db/types.js';

export interface VerificationImages {
  docFront: Buffer;
  docBack: Buffer | null;
  selfie: Buffer;
  /** Active liveness: the frontal anchor and the frames of each step, in order. */
  liveness: { anchor: Buffer; steps: { step: number; pose: string; frames: Buffer[] }[] } | null;
}

export interface VerificationOutcome {
  verdict: Verdict;
  scores: Scores;
  reasons: string[];
  fieldsExtracted: FieldsExtracted;
}

/** Turns stored images into a verdict; `VisionPipeline` implements it (tests may inject doubles). */
export interface VerificationPipeline {
  run(verification: Verification, images: VerificationImages): Promise<VerificationOutcome>;
}

/** A failure that retrying cannot fix: the verification becomes `failed` at once. */
export class PermanentPipelineError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}
