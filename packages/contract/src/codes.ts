/** Error codes, reasons, roles and event types of the contract. */

export const ERROR_STATUS = {
  invalid_body: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  secret_key_required: 401,
  invalid_admin_token: 401,
  insufficient_credits: 402,
  origin_not_allowed: 403,
  verification_not_found: 404,
  not_found: 404,
  not_in_review: 409,
  // Dashboard (decisions.md "Dashboard"): session sign-in, CSRF and roles.
  not_signed_in: 401,
  invalid_credentials: 401,
  csrf_token_invalid: 403,
  forbidden_for_role: 403,
  user_exists: 409,
  account_locked: 429,
  rate_limited: 429,
  internal_error: 500,
  backend_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** Exactly these are worth retrying (interface.md, Errors rule 2). */
export const RETRYABLE_ERROR_CODES: readonly ErrorCode[] = ['rate_limited', 'internal_error', 'backend_unavailable'];

export const UPLOAD_REASONS = [
  'missing_upload_token',
  'invalid_upload_token',
  'key_mismatch',
  'invalid_role',
  'not_a_jpeg',
  'image_too_small',
  'image_too_large',
  'upload_source_forbidden_for_biometric',
  'no_active_challenge',
  'already_submitted',
  'upload_slot_expired',
  'challenge_expired',
] as const;
export type UploadReason = (typeof UPLOAD_REASONS)[number];

export const SUBMIT_REASONS = [
  'doc_front_key_mismatch',
  'selfie_key_mismatch',
  'doc_back_key_mismatch',
  'doc_front_not_uploaded',
  'selfie_not_uploaded',
  'doc_back_not_uploaded',
  /**
   * Listed by interface.md under submit, so it stays here for clients; the API never raises it on
   * submit (submit checks every object in its own transaction). It happens in the job, after the
   * image vanished before OCR, as a job failure code (FAILURE_CODES).
   */
  'doc_front_disappeared',
  'liveness_incomplete',
] as const;
export type SubmitReason = (typeof SUBMIT_REASONS)[number];

/** `detail.reason` values of the operator API's 400 `invalid_body`. */
export const ADMIN_REASONS = ['invalid_status'] as const;
export type AdminReason = (typeof ADMIN_REASONS)[number];

/** `detail.reason` values of the dashboard API (`/dashboard/api`). */
export const DASHBOARD_REASONS = ['invite_invalid'] as const;
export type DashboardReason = (typeof DASHBOARD_REASONS)[number];

/** Every `detail.reason` a 400 `invalid_body` can carry (a failed schema carries `fieldErrors` instead). */
export const INVALID_BODY_REASONS = [...UPLOAD_REASONS, ...SUBMIT_REASONS, ...ADMIN_REASONS, ...DASHBOARD_REASONS] as const;
export type InvalidBodyReason = (typeof INVALID_BODY_REASONS)[number];

export const DOCUMENT_ROLES = ['doc-front', 'doc-back', 'selfie'] as const;
export type DocumentRole = (typeof DOCUMENT_ROLES)[number];

export const LIVENESS_ANCHOR_ROLE = 'liveness-anchor';
export const LIVENESS_POSES = ['turn_left', 'turn_right', 'look_up', 'look_down'] as const;
export type LivenessPose = (typeof LIVENESS_POSES)[number];

export const DOCUMENT_TYPES = ['dni', 'passport', 'drivers_license', 'national_id', 'other'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const VERIFICATION_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const VERDICTS = ['approved', 'review', 'rejected'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const MODES = ['live', 'test'] as const;
export type Mode = (typeof MODES)[number];

export const KEY_FAMILIES = ['publishable', 'secret'] as const;
export type KeyFamily = (typeof KEY_FAMILIES)[number];

/** The four key prefixes; a valid key is one prefix then 16-64 of [A-Za-z0-9_]. */
export const API_KEY_PREFIXES = {
  qv_pub_: { family: 'publishable', mode: 'live' },
  qv_pubt_: { family: 'publishable', mode: 'test' },
  qv_sec_: { family: 'secret', mode: 'live' },
  qv_sect_: { family: 'secret', mode: 'test' },
} as const satisfies Record<string, { family: KeyFamily; mode: Mode }>;
export type ApiKeyPrefix = keyof typeof API_KEY_PREFIXES;
export const API_KEY_PATTERN = /^(qv_pub_|qv_pubt_|qv_sec_|qv_sect_)[A-Za-z0-9_]{16,64}$/;

export const VERIFICATION_ID_PATTERN = /^vf_[A-Za-z0-9]{16,24}$/;

/** Reasons a verdict may carry (decisions.md, Result record; more may appear within /v1). */
export const VERDICT_REASONS = [
  'name_mismatch',
  'face_mismatch',
  'document_unreadable',
  'document_expired',
  'liveness_failed',
  'blurry_image',
  'no_face_in_selfie',
  'test_mode_forced',
  // decisions.md "Verdict reasons (additions)": each quality problem its own reason.
  'image_too_dark',
  'glare',
  'low_resolution',
  // Within /v1 (decisions.md: more may appear): the document was photographed off a screen.
  'document_on_screen',
  // Within /v1: the machine-readable zone and the printed fields disagree on a field (decisions.md,
  // "Extracted fields": never silently one of the two).
  'document_inconsistent',
] as const;
export type VerdictReason = (typeof VERDICT_REASONS)[number];

/** `failure_code` of a verification that ended `failed` (no verdict): why the pipeline gave up. */
export const FAILURE_CODES = [
  /** The pipeline kept failing after its retries. */
  'pipeline_error',
  /** The isolated pipeline process died during the run (a crash, not a budget). */
  'pipeline_crashed',
  'doc_front_disappeared',
  'selfie_disappeared',
  'liveness_frames_disappeared',
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

export const SCORE_NAMES = ['document_ocr', 'name_match', 'face_match', 'image_quality', 'liveness'] as const;
export type ScoreName = (typeof SCORE_NAMES)[number];

export const WEBHOOK_EVENT_TYPES = [
  'verification.approved',
  'verification.rejected',
  'verification.needs_review',
  'verification.reviewed',
  'verification.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of the operator's on-demand test delivery (not a verification event). */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** Headers of the contract. */
export const HEADERS = {
  requestId: 'X-Request-Id',
  uploadToken: 'X-Service-Upload-Token',
  captureSource: 'X-Service-Capture-Source',
  retryAfter: 'Retry-After',
  signature: 'Service-Signature',
  event: 'Service-Event',
  eventId: 'Service-Event-Id',
} as const;

export const CAPTURE_SOURCES = ['camera', 'upload'] as const;
export type CaptureSource = (typeof CAPTURE_SOURCES)[number];

/** Magic names that force a verdict in test mode only (compared case-insensitively). */
export const TEST_MODE_FORCED_VERDICTS: Readonly<Record<string, Verdict>> = {
  'test approve': 'approved',
  'test review': 'review',
  'test reject': 'rejected',
};

export const WIDGET_ERROR_CODES = [
  'camera_denied',
  'camera_unavailable',
  'upload_failed',
  'api_unreachable',
  'invalid_api_key',
  'insufficient_credits',
  'rate_limited',
  'user_cancelled',
  'internal_error',
  /** In the public type, shown inline on the review screen, never dispatched. */
  'blurry_image',
  'no_face_in_selfie',
] as const;
export type WidgetErrorCode = (typeof WIDGET_ERROR_CODES)[number];
/** Shown inline on the review screen, never dispatched as `service:error`. */
export const WIDGET_HINT_CODES = ['blurry_image', 'no_face_in_selfie'] as const satisfies readonly WidgetErrorCode[];
export type WidgetHintCode = (typeof WIDGET_HINT_CODES)[number];
/** The codes a `service:error` event carries: every widget code but the inline hints. */
export type DispatchedWidgetErrorCode = Exclude<WidgetErrorCode, WidgetHintCode>;

export const WIDGET_EVENTS = { complete: 'service:complete', error: 'service:error' } as const;
