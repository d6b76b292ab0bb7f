import type { AuditAction, ScoreName } from '@service/contract';

/** Verdict reasons in plain words for a reviewer (codes come from the contract; unknown ones are shown as is). */
const REASONS: Record<string, string> = {
  name_mismatch: 'The name on the document does not match the name typed by the user.',
  face_mismatch: 'The selfie does not look like the photo on the document.',
  document_unreadable: 'The document could not be read.',
  document_expired: 'The document has expired.',
  liveness_failed: 'The liveness check failed: the head movements asked for were not seen.',
  blurry_image: 'An image is blurry.',
  no_face_in_selfie: 'No face was found in the selfie.',
  test_mode_forced: 'Test mode: the verdict was forced by the test name.',
  image_too_dark: 'An image is too dark.',
  glare: 'Glare hides part of the document.',
  low_resolution: 'An image has too few pixels to judge.',
  document_on_screen: 'The document was photographed off a screen, not held in the hand.',
  document_inconsistent: 'The machine-readable zone and the printed fields disagree on a field.',
};

export function reasonInWords(code: string): string {
  return REASONS[code] ?? code.replace(/_/g, ' ');
}

/** A reason's short name for a chart's axis: "Name mismatch". */
export function reasonLabel(code: string): string {
  const words = code.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A duration in seconds as a person reads it: "850 ms", "12.4 s", "3 min 5 s", "2 h 10 min", "3 d 4 h". */
export function duration(seconds: number | null): string {
  if (seconds === null) return '-';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const s = Math.round(seconds);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

export const SCORE_LABELS: Record<ScoreName, string> = {
  document_ocr: 'Document read',
  name_match: 'Name match',
  face_match: 'Face match',
  image_quality: 'Image quality',
  liveness: 'Liveness',
};

export const FIELD_LABELS: Record<string, string> = {
  fullName: 'Full name',
  documentNumber: 'Document number',
  dateOfBirth: 'Date of birth',
  expiryDate: 'Expiry date',
  nationality: 'Nationality',
};

const ACTIONS: Record<AuditAction, string> = {
  'session.signed_in': 'Signed in',
  'session.signed_out': 'Signed out',
  'user.invite_accepted': 'Accepted an invite',
  'verification.reviewed': 'Reviewed a verification',
  'verification.image_viewed': 'Viewed an image',
  'webhook.updated': 'Changed webhook settings',
  'webhook.delivery_requeued': 'Requeued a delivery',
  'webhook.deliveries_requeued': 'Requeued all failed deliveries',
  'key.created': 'Created an API key',
  'key.revoked': 'Revoked an API key',
  'key.origins_updated': 'Changed allowed origins',
};

export function actionInWords(action: string): string {
  return ACTIONS[action as AuditAction] ?? action;
}

export const IMAGE_LABELS: Record<string, string> = {
  'doc-front': 'Document front',
  'doc-back': 'Document back',
  selfie: 'Selfie',
  'liveness-anchor': 'Liveness: frontal frame',
};

export const POSE_LABELS: Record<string, string> = {
  turn_left: 'Turn left',
  turn_right: 'Turn right',
  look_up: 'Look up',
  look_down: 'Look down',
};

export function percent(score: number | null | undefined): string {
  return score === null || score === undefined ? 'not computed' : `${Math.round(score * 100)} %`;
}

export function when(iso: string | null): string {
  if (!iso) return '-';
  const d = new Date(iso);
  return d.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}
