import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Timestamps come back as Date; we write them through SQL expressions of the shared clock. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;
/** jsonb: read as parsed JSON, written as a JSON string. */
type Json<T> = ColumnType<T, string, string>;

export interface TenantsTable {
  id: string;
  name: string;
  credits: number;
  webhook_url: string | null;
  /** Kept in clear: it is the HMAC key of every delivery, so it must be usable, never shown. */
  webhook_secret: string | null;
  created_at: Generated<Date>;
}

export interface ApiKeysTable {
  id: string;
  tenant_id: string;
  family: 'publishable' | 'secret';
  mode: 'live' | 'test';
  /** SHA-256 of the full key: keys are 128+ bit random, so a fast hash is safe and indexable. */
  key_hash: string;
  /** The key's last four characters, shown in the dashboard (null for keys made before 002). */
  last_four: Generated<string | null>;
  allowed_origins: Json<string[]>;
  revoked_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface VerificationsTable {
  id: string;
  tenant_id: string;
  mode: 'live' | 'test';
  upload_token_hash: string;
  user_ref: string | null;
  submitted_full_name: string | null;
  country: string | null;
  document_type: string | null;
  active_liveness: boolean;
  created_at: Timestamp;
  slots_expire_at: Timestamp;
  intent_expires_at: Timestamp;
  /** null until submitted; then queued -> processing -> completed | failed. */
  status: 'queued' | 'processing' | 'completed' | 'failed' | null;
  submitted_at: NullableTimestamp;
  with_doc_back: Generated<boolean>;
  verdict: 'approved' | 'review' | 'rejected' | null;
  scores: Json<Record<string, number | null>> | null;
  reasons: Json<string[]> | null;
  fields_extracted: Json<Record<string, string | null>> | null;
  completed_at: NullableTimestamp;
  failure_code: string | null;
  review_decision: 'approved' | 'rejected' | null;
  review_note: string | null;
  reviewed_at: NullableTimestamp;
  charged: Generated<boolean>;
  liveness_steps_issued: Generated<number>;
  /** Retention (jobs/retention.ts) or a redaction deleted the images. */
  images_deleted_at: NullableTimestamp;
  /** The typed name, extracted fields and review note were erased. */
  personal_data_erased_at: NullableTimestamp;
  /** The tenant asked for erasure (`POST /v1/verify/:id/redact`). */
  redacted_at: NullableTimestamp;
}

export interface VerificationUploadsTable {
  verification_id: string;
  role: string;
  bytes: number;
  capture_source: string | null;
  uploaded_at: Timestamp;
}

export interface LivenessStepsTable {
  verification_id: string;
  step: number;
  pose: string;
  nonce: string;
  issued_at: Timestamp;
  expires_at: Timestamp;
}

export interface RateLimitBucketsTable {
  key: string;
  bucket: number;
  count: number;
}

export interface WebhookEventsTable {
  id: string;
  tenant_id: string;
  verification_id: string;
  type: string;
  /** The exact bytes that are signed and sent, serialised once. */
  body: string;
  created_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  tenant_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  /** Attempts since the last (re)queue: indexes the retry schedule. */
  round_attempts: Generated<number>;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempt: number;
  started_at: Timestamp;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
}

export interface DashboardUsersTable {
  id: string;
  tenant_id: string;
  email: string;
  role: 'admin' | 'reviewer';
  password_hash: string | null;
  created_at: Generated<Date>;
}

export interface DashboardSessionsTable {
  token_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface DashboardInvitesTable {
  token_hash: string;
  user_id: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface DashboardSignInFailuresTable {
  id: Generated<number>;
  email: string;
  at: Timestamp;
}

export interface DashboardLockoutsTable {
  email: string;
  locked_until: Timestamp;
}

export interface DashboardAuditLogTable {
  id: Generated<number>;
  tenant_id: string;
  user_id: string | null;
  user_email: string;
  action: string;
  target: string | null;
  detail: Json<Record<string, unknown>> | null;
  at: Timestamp;
}

/** A verification's image data key, wrapped by the deployment's key (storage/blob-encryption.ts). */
export interface BlobDataKeysTable {
  verification_id: string;
  master_key_id: string;
  wrapped_key: Buffer;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** A verification's handoff link to a phone (routes/handoff.ts); secrets as SHA-256 only. */
export interface HandoffCodesTable {
  code_hash: string;
  verification_id: string;
  desktop_token_hash: string;
  options: Json<{ documentBack: boolean; locale: string }>;
  session_hash: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  expires_at: Timestamp;
  claimed_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface Database {
  tenants: TenantsTable;
  api_keys: ApiKeysTable;
  verifications: VerificationsTable;
  verification_uploads: VerificationUploadsTable;
  liveness_steps: LivenessStepsTable;
  rate_limit_buckets: RateLimitBucketsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  dashboard_users: DashboardUsersTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_invites: DashboardInvitesTable;
  dashboard_sign_in_failures: DashboardSignInFailuresTable;
  dashboard_lockouts: DashboardLockoutsTable;
  dashboard_audit_log: DashboardAuditLogTable;
  blob_data_keys: BlobDataKeysTable;
  handoff_codes: HandoffCodesTable;
}

export type Tenant = Selectable<TenantsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type Verification = Selectable<VerificationsTable>;
export type NewVerification = Insertable<VerificationsTable>;
