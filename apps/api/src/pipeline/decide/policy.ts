import type { FaceResult } from '../read/faces/faces.js';
import type { QualityProblem } from '../read/quality/image-quality.js';

/**
 * The verdict policy: one configuration, the same for every tenant. Each score has a line below
 * which it rejects and a line below which it sends the verification to human review. Values were
 * set from the measurements in docs/pipeline.md and are to be re-calibrated on the evaluation set.
 */
export const POLICY = {
  /**
   * face_match: the cosine of the two faces' dlib descriptors (colour; the selfie's in grey where
   * the portrait is printed grey) on the 0-1 scale of `faceMatchScore` (read/faces/descriptor/
   * face-match-scale.ts: cosine 0.85 -> 0.40, 0.925 -> 0.70, 0.940 -> 0.76). Lines from the
   * real cross-photo face set (evaluation/src/faces/README.md, hard impostors: same sex, born
   * within 5 years): `review` is the dev split's line for FAR <= 0.1% (cosine 0.940: 1 of 1551 dev
   * impostors at or above; on test 0 of 580, 93% of genuine cross-photo pairs above; through the
   * service's own analyser, which finds more of the in-flight faces, 2 of 1621 dev impostors and 0 of
   * 580 test ones at or above, cross-photo pairs 67% / 100% above); between it
   * and `reject` a person looks (the FAR 1% line, cosine 0.925, would reject genuine pairs, which
   * go down to 0.86); only a clear difference (cosine under 0.85) rejects.
   */
  faceMatch: { reject: 0.4, review: 0.76 },
  /** name_match: reordered or accented forms score 1; a left-out middle name 0.9; other people under 0.6. */
  nameMatch: { reject: 0.6, review: 0.85 },
  /** document_ocr: 1 for a zone whose checks all hold; from OCR confidence and fields found otherwise (score/document-score.ts). */
  documentOcr: { reject: 0.3, review: 0.6 },
  /** liveness: the share of challenge steps passed; one missed step of four goes to review. */
  liveness: { reject: 0.5, review: 1 },
  /**
   * A selfie's face the detector is sure of. Below `minConfidence` (the default line of
   * MediaPipe's own face detector) it may be no face at all: a glove and a patch on a spacesuit,
   * the face out of the frame, were "found" at 0.4 and matched the suit on the portrait at 0.45.
   * Faces in 494 selfies of the synthetic sets scored 0.93 or more, but one blurred at 0.4 and men
   * in profile at 0.38-0.71. A person looks.
   *
   * `confirmMatch`: the match an unsure face needs for its comparison not to be in doubt too.
   * Another man in profile, unsure or meshless, matched a woman's portrait at 0.51 and 0.61:
   * below this line `face_mismatch` joins the review, so
   * the reviewer is told the face was not borne out. The verdict is review either way.
   */
  selfieFace: { minConfidence: 0.5, confirmMatch: 0.8 },
} as const;

export type Verdict = 'approved' | 'review' | 'rejected';

export interface PolicyInput {
  documentOcr: number;
  nameMatch: number | null;
  faceMatch: number | null;
  imageQuality: number;
  selfieHasFace: boolean;
  /** The selfie's face was found below `POLICY.selfieFace.minConfidence`: maybe no face at all. Default false. */
  selfieFaceUnsure?: boolean;
  documentReadable: boolean;
  documentExpired: boolean;
  /** False when no expiry date was read: validity unknown, so never approved unseen. Default true. */
  expiryRead?: boolean;
  /** Quality problems of any image (each its own reason: blur, darkness, glare, too few pixels). */
  qualityProblems: readonly QualityProblem[];
  /** null without active liveness. */
  liveness: number | null;
  /** The document was photographed off a screen (screen-capture.ts): a person looks. */
  documentOnScreen: boolean;
  /** A reflection burns out the document portrait's face (burn-out.ts). Default false. */
  portraitUnderGlare?: boolean;
  /** The zone (its check digits holding) and a sure printed reading disagree on a field (fuse.ts). Default false. */
  documentInconsistent?: boolean;
}

/** Reasons first, then the verdict: any rejecting reason rejects; else any review reason reviews. */
export function decide(i: PolicyInput): { verdict: Verdict; reasons: string[] } {
  const reject = new Set<string>();
  const review = new Set<string>();
  if (!i.selfieHasFace) reject.add('no_face_in_selfie');
  else if (i.selfieFaceUnsure) review.add('no_face_in_selfie');
  if (!i.documentReadable || i.documentOcr < POLICY.documentOcr.reject) reject.add('document_unreadable');
  else if (i.documentOcr < POLICY.documentOcr.review) review.add('document_unreadable');
  if (i.documentExpired) reject.add('document_expired');
  else if (i.expiryRead === false) review.add('document_unreadable');
  if (i.faceMatch !== null) {
    // A reflection over the portrait's face leaves little to compare: a low score is no proof of
    // another person. A person looks, told of the glare (a genuine user had been rejected at 0.28).
    if (i.portraitUnderGlare && i.faceMatch < POLICY.faceMatch.review) {
      review.add('face_mismatch');
      review.add('glare');
    } else if (i.faceMatch < POLICY.faceMatch.reject) reject.add('face_mismatch');
    else if (i.faceMatch < POLICY.faceMatch.review) review.add('face_mismatch');
    else if (i.selfieFaceUnsure && i.faceMatch < POLICY.selfieFace.confirmMatch) review.add('face_mismatch');
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
  for (const p of i.qualityProblems) review.add(p);
  if (i.documentOnScreen) review.add('document_on_screen');
  if (i.documentInconsistent) review.add('document_inconsistent');
  const verdict: Verdict = reject.size ? 'rejected' : review.size ? 'review' : 'approved';
  const reasons = [...reject, ...[...review].filter((r) => !reject.has(r))];
  return { verdict, reasons: verdict === 'approved' ? [] : reasons };
}

/**
 * Whether a selfie's face leaves it in doubt that the selfie shows one (`no_face_in_selfie` for a
 * person to look at): unsure to the detector, at the frame's edge (a chest cut at the eyes),
 * without a mesh (a head turned away), or framed high and close (a face cut at the eyes is framed
 * so too, its eyes guessed by the mesh) and not matched surely to the portrait (`faceMatch`).
 */
export function selfieFaceInDoubt(
  face: Pick<FaceResult, 'score' | 'atFrameEdge' | 'meshless' | 'framedHigh'>,
  faceMatch: number | null,
): boolean {
  return (
    face.score < POLICY.selfieFace.minConfidence ||
    face.atFrameEdge === true ||
    face.meshless === true ||
    (face.framedHigh === true && (faceMatch ?? 0) < POLICY.selfieFace.confirmMatch)
  );
}
