import type { DocumentType, FieldsExtracted, FailureCode, Scores, Verdict } from '@service/contract';

/** What the pipeline needs to know of a verification besides its images (never a database row). */
export interface PipelineRequest {
  documentType: DocumentType | null;
  submittedFullName: string | null;
  /** ISO 3166-1 alpha-2, steers date order in printed text. */
  country: string | null;
}

export interface VerificationImages {
  docFront: Buffer;
  docBack: Buffer | null;
  selfie: Buffer;
  /** Active liveness: the frontal anchor and the frames of each step, in order. */
  liveness: { anchor: Buffer; steps: { step: number; pose: string; frames: Buffer[] }[] } | null;
}

/**
 * What the caller knows of the machine while a run goes: `alone`, no other verification runs
 * beside it, so cores that would idle may read ahead (a text page binarised and as it is at once,
 * where one at a time the second reading waits on the first, and is sometimes not needed).
 * Under load every core is taken, and a reading not needed would slow the others: none is then.
 */
export interface RunHints {
  alone?: boolean;
}

/** Nothing read from the document (or all of it erased): every field null. Frozen: shared. */
export const NO_FIELDS: Readonly<FieldsExtracted> = Object.freeze({
  fullName: null,
  documentNumber: null,
  dateOfBirth: null,
  expiryDate: null,
  nationality: null,
});

export interface VerificationOutcome {
  verdict: Verdict;
  scores: Scores;
  reasons: string[];
  fieldsExtracted: FieldsExtracted;
  /** CPU milliseconds per stage of this run (for the pipeline benchmark); absent for forced verdicts. */
  stageTimes?: Record<string, number>;
}

/** Turns stored images into a verdict; `VisionPipeline` implements it (tests may inject doubles). */
export interface VerificationPipeline {
  run(request: PipelineRequest, images: VerificationImages): Promise<VerificationOutcome>;
}

/** A failure that retrying cannot fix: the verification becomes `failed` at once. */
export class PermanentPipelineError extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
  ) {
    super(message);
  }
}
