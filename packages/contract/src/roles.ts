import { DOCUMENT_ROLES, LIVENESS_ANCHOR_ROLE, type DocumentRole, type SubmitReason } from './codes.js';
import { LIMITS } from './limits.js';

/**
 * The three captures by the one name clients use in JSON (`uploads.docFront`, `keys.docFront`) and
 * the widget uses everywhere; the upload URL's segment and the reasons that concern each capture
 * come from this map, never from literals.
 */
export const CAPTURE_ROLES = ['docFront', 'docBack', 'selfie'] as const;
export type CaptureRole = (typeof CAPTURE_ROLES)[number];

export interface CaptureRoleInfo {
  /** The upload role segment and storage name (`doc-front`). */
  slot: DocumentRole;
  /** Submit's reason when `keys.<role>` is not the key init issued. */
  keyMismatch: SubmitReason;
  /** Submit's reason when nothing was uploaded to the slot. */
  notUploaded: SubmitReason;
}

export const CAPTURE_ROLE_INFO = {
  docFront: { slot: 'doc-front', keyMismatch: 'doc_front_key_mismatch', notUploaded: 'doc_front_not_uploaded' },
  docBack: { slot: 'doc-back', keyMismatch: 'doc_back_key_mismatch', notUploaded: 'doc_back_not_uploaded' },
  selfie: { slot: 'selfie', keyMismatch: 'selfie_key_mismatch', notUploaded: 'selfie_not_uploaded' },
} as const satisfies Record<CaptureRole, CaptureRoleInfo>;

/** The upload segment of a capture role: `slotOf('docFront')` is `doc-front`. */
export const slotOf = (role: CaptureRole): DocumentRole => CAPTURE_ROLE_INFO[role].slot;

/** What an upload role segment names: a document slot, the liveness anchor, or one burst frame. */
export type ParsedRole =
  | { kind: 'document'; role: DocumentRole }
  | { kind: 'anchor'; role: typeof LIVENESS_ANCHOR_ROLE }
  | { kind: 'frame'; role: string; step: number; frame: number };

const FRAME_ROLE = /^liveness-([1-9])-([1-9])$/;

/** Parses an upload role segment; null for anything unrecognised (400 `invalid_role`). */
export function parseRole(segment: string): ParsedRole | null {
  if ((DOCUMENT_ROLES as readonly string[]).includes(segment)) return { kind: 'document', role: segment as DocumentRole };
  if (segment === LIVENESS_ANCHOR_ROLE) return { kind: 'anchor', role: LIVENESS_ANCHOR_ROLE };
  const m = FRAME_ROLE.exec(segment);
  if (!m) return null;
  const step = Number(m[1]);
  const frame = Number(m[2]);
  if (step > LIMITS.livenessSteps || frame > LIMITS.livenessBurst) return null;
  return { kind: 'frame', role: segment, step, frame };
}

export function frameRole(step: number, frame: number): string {
  return `liveness-${step}-${frame}`;
}

/** The four frame roles of one challenge step. */
export function stepFrameRoles(step: number): string[] {
  return Array.from({ length: LIMITS.livenessBurst }, (_, i) => frameRole(step, i + 1));
}

/** The storage handle of a slot: `verif/<tenant>/<verification>/<role>.jpg` (no personal data). */
export function slotKey(tenantId: string, verificationId: string, role: string): string {
  return `${verificationPrefix(tenantId, verificationId)}/${role}.jpg`;
}

/** The folder of one verification's images in the blob store (erased as a whole). */
export function verificationPrefix(tenantId: string, verificationId: string): string {
  return `verif/${tenantId}/${verificationId}`;
}
