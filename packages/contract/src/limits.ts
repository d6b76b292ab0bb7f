/** Every number of the contract (interface.md "Limits", decisions.md), in one place. */
export const LIMITS = {
  /** Per client IP, all rate-limited routes together, checked before authentication. */
  perIpPerMinute: 100,
  /** Per tenant, each route its own counter. */
  perTenantPerMinute: { init: 60, submit: 30, result: 600 },
  /** Fixed windows: bucket = floor(unix_seconds / 60). */
  rateWindowSeconds: 60,
  imageMinBytes: 100,
  /** "2 MB" of the interface, read as 2 MiB. */
  imageMaxBytes: 2 * 1024 * 1024,
  /** Largest image (width x height as its header says) the pipeline decodes; larger is unreadable. */
  imageMaxPixels: 25_000_000,
  userRefMaxLength: 128,
  submittedFullNameMaxLength: 255,
  /** Upload slots valid until expiresAt, 15 minutes after init. */
  uploadSlotSeconds: 15 * 60,
  /** The verification intent (upload and submit) lives one hour. */
  intentSeconds: 60 * 60,
  preflightMaxAgeSeconds: 600,
  webhookTimeoutMs: 10_000,
  webhookConnectTimeoutMs: 5_000,
  webhookToleranceSeconds: 300,
  webhookSecretMinLength: 24,
  /** Waits after a failed attempt: 5 s, 30 s, 2 min, 10 min (5 attempts, 12 min 35 s in all). */
  webhookRetryDelaysSeconds: [5, 30, 120, 600] as readonly number[],
  livenessSteps: 4,
  livenessBurst: 4,
  /** A frame must arrive within this many seconds of its beacon being issued. */
  livenessBeaconSeconds: 20,
  /**
   * Degrees (as the face landmark models read them, against the anchor) a frame must move the way
   * its beacon asks to show the pose: the server's line. The widget asks for a little more.
   */
  livenessPoseDegrees: 8,
  /** Widget upload retry: at most 3 attempts, waiting 400 ms then 1200 ms. */
  widgetUploadAttempts: 3,
  widgetUploadBackoffMs: [400, 1200] as readonly number[],
} as const;
