import type { VerdictReason } from '@service/contract';
import { NO_FIELDS, type VerificationOutcome } from '../pipeline/pipeline.js';

const UNREADABLE: VerdictReason = 'document_unreadable';

/** The verdict on images nobody could judge within the budget: nothing read, nobody matched. */
export function unreadableOutcome(): VerificationOutcome {
  return {
    verdict: 'rejected',
    reasons: [UNREADABLE],
    scores: { document_ocr: 0, name_match: null, face_match: null, image_quality: 0, liveness: null },
    fieldsExtracted: NO_FIELDS,
  };
}
