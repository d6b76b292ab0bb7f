import type { DocumentType, FieldsExtracted, Scores } from '@service/contract';
import { decide, selfieFaceInDoubt, type PolicyInput, type Verdict } from '../decide/policy.js';
import { isDrivingLicence } from '../evidence/document-kind.js';
import type { DocumentEvidence } from '../evidence/fuse.js';
import type { DocumentPhotoRead } from '../read/read-document-photo.js';
import type { SelfieRead } from '../read/read-selfie.js';
import { claimNameScore } from './claim-name.js';
import { documentReadScore } from './document-score.js';

/** Everything the verdict is computed from. */
export interface Judged {
  document: DocumentPhotoRead;
  selfie: SelfieRead;
  /** The portrait against the selfie's face (null where either has none). */
  faceMatch: number | null;
  /** The name the user typed (compared only now, after the document was read). */
  claim: string | null;
  documentType: DocumentType | null;
  today: string;
}

/** The scores, the fields reported and the policy's verdict, from what was read. */
export function judge(j: Judged): { verdict: Verdict; reasons: string[]; scores: Scores; fieldsExtracted: FieldsExtracted } {
  const e = j.document.evidence;
  const read = documentReadScore(e, {
    documentFace: j.document.portrait !== null,
    licence: isDrivingLicence(
      j.documentType,
      e.printed.map((p) => p.text),
    ),
  });
  const nameMatch = j.claim ? claimNameScore(j.claim, e) : null;
  const expiry = e.fields.expiryDate.value;
  const policy: PolicyInput = {
    documentOcr: read.score,
    nameMatch,
    faceMatch: j.faceMatch,
    imageQuality: Math.min(j.document.quality.score, j.selfie.quality.score),
    selfieHasFace: j.selfie.face !== null,
    selfieFaceUnsure: j.selfie.face !== null && selfieFaceInDoubt(j.selfie.face, j.faceMatch),
    documentReadable: read.readable,
    documentExpired: expiry !== null && expiry < j.today,
    expiryRead: expiry !== null,
    qualityProblems: [...new Set([...j.document.quality.problems, ...j.selfie.quality.problems])],
    liveness: j.selfie.liveness,
    documentOnScreen: j.document.onScreen,
    portraitUnderGlare: j.document.portraitUnderGlare,
    documentInconsistent: e.disagreements.length > 0,
  };
  const { verdict, reasons } = decide(policy);
  const scores: Scores = {
    document_ocr: round(read.score),
    name_match: nameMatch === null ? null : round(nameMatch),
    face_match: j.faceMatch === null ? null : round(j.faceMatch),
    image_quality: round(policy.imageQuality),
    liveness: j.selfie.liveness,
  };
  return { verdict, reasons, scores, fieldsExtracted: fieldsExtracted(e) };
}

/** The fields reported to the tenant (decisions.md, "Extracted fields"): each a string or null, never empty. */
export function fieldsExtracted(e: DocumentEvidence): FieldsExtracted {
  const f = e.fields;
  const fullName = [f.givenNames.value, f.surname.value].filter((x): x is string => Boolean(x)).join(' ');
  const orNull = (v: string | null) => (v && v.trim() ? v : null);
  return {
    fullName: f.surname.value ? orNull(fullName) : null,
    documentNumber: orNull(f.documentNumber.value),
    dateOfBirth: orNull(f.dateOfBirth.value),
    expiryDate: orNull(f.expiryDate.value),
    nationality: orNull(f.nationality.value),
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
