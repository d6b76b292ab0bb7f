/**
 * The verdict policy: one configuration, the same for every tenant. Each score has a line below
 * which it rejects and a line below which it sends the verification to human review. Values were
 * set from the measurements in docs/pipeline.md and are to be re-calibrated on the evaluation set.
 */
export const POLICY = {
  /** face_match (human's embedding similarity): same person re-cropped 0.8-1.0, different people about 0.2. */
  faceMatch: { reject: 0.4, review: 0.6 },
  /** name_match: reordered or accented forms score 1; a left-out middle name 0.9; other people under 0.6. */
  nameMatch: { reject: 0.6, review: 0.85 },
  /** document_ocr: 1 for a valid MRZ; from OCR confidence and fields found otherwise. */
  documentOcr: { reject: 0.3, review: 0.6 },
  /** image_quality: 0 when blurry, too dark, burnt out or too small (see image-quality.ts). */
  imageQuality: { review: 0.3 },
  /** liveness: the share of challenge steps passed; one missed step of four goes to review. */
  liveness: { reject: 0.5, review: 1 },
  /** A document without a detectable face loses this much document_ocr. */
  noDocumentFacePenalty: 0.3,
} as const;

export type Verdict = 'approved' | 'review' | 'rejected';

export interface PolicyInput {
  documentOcr: number;
  nameMatch: number | null;
  faceMatch: number | null;
  imageQuality: number;
  selfieHasFace: boolean;
  documentReadable: boolean;
  documentExpired: boolean;
  blurry: boolean;
  /** null without active liveness. */
  liveness: number | null;
}

/** Reasons first, then the verdict: any rejecting reason rejects; else any review reason reviews. */
export function decide(i: PolicyInput): { verdict: Verdict; reasons: string[] } {
  const reject = new Set<string>();
  const review = new Set<string>();
  if (!i.selfieHasFace) reject.add('no_face_in_selfie');
  if (!i.documentReadable || i.documentOcr < POLICY.documentOcr.reject) reject.add('document_unreadable');
  else if (i.documentOcr < POLICY.documentOcr.review) review.add('document_unreadable');
  if (i.documentExpired) reject.add('document_expired');
  if (i.faceMatch !== null) {
    if (i.faceMatch < POLICY.faceMatch.reject) reject.add('face_mismatch');
    else if (i.faceMatch < POLICY.faceMatch.review) review.add('face_mismatch');
  } else if (i.selfieHasFace) {
    review.add('face_mismatch'); // no face on the document to compare with
  }
  if (i.nameMatch !== null) {
    if (i.nameMatch < POLICY.nameMatch.reject) reject.add('name_mismatch');
    else if (i.nameMatch < POLICY.nameMatch.review) review.add('name_mismatch');
  }
  if (i.liveness !== null) {
    if (i.liveness < POLICY.liveness.reject) reject.add('liveness_failed');
    else if (i.liveness < POLICY.liveness.review) review.add('liveness_failed');
  }
  if (i.blurry || i.imageQuality < POLICY.imageQuality.review) review.add('blurry_image');
  const verdict: Verdict = reject.size ? 'rejected' : review.size ? 'review' : 'approved';
  const reasons = [...reject, ...[...review].filter((r) => !reject.has(r))];
  return { verdict, reasons: verdict === 'approved' ? [] : reasons };
}
