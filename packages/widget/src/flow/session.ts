import type { InitResponse, UploadSlot } from '@service/contract';
import { AbortedError, type ApiClient, type InitFields } from '../api/client.js';
import { FlowError } from '../api/errors.js';
import type { CaptureRole } from './machine.js';

/** Slots this close to `expiresAt` are treated as expired: init again rather than race the clock. */
const EXPIRY_MARGIN_S = 30;

interface Upload {
  slot: UploadSlot;
  blob: Blob;
  /** Settles when this upload ends (never rejects: the error is kept in `error`). */
  settled: Promise<void>;
  state: 'running' | 'done' | 'failed';
  error?: unknown;
  sent: number;
  controller: AbortController;
}

/**
 * Where a session's verification comes from and how it is submitted, when not init and submit
 * with the publishable key: the phone of a handoff claims the desktop's verification and submits
 * with the upload token its claim returned.
 */
export interface SessionBackend {
  open(signal: AbortSignal): Promise<InitResponse>;
  submit(
    init: InitResponse,
    keys: { docFront: string; selfie: string; docBack?: string },
    signal: AbortSignal,
  ): Promise<{ status: 'queued' | 'processing' | 'completed' | 'failed' }>;
}

export type SessionListener = {
  /** A background upload failed for good (after its retries): the flow stops. */
  onUploadFailed(err: unknown): void;
  /** Bytes sent so far over bytes held, for the progress bar. */
  onProgress?(fraction: number): void;
};

/**
 * One verification as the widget runs it, outside the element: init when the user presses
 * start, each capture uploaded in the background as soon as it is confirmed (a retake replaces
 * the slot's upload), liveness frames uploaded at once, and submit after the last upload. One
 * AbortController covers every request: `abort()` (Cancel) stops the requests in flight.
 */
export class VerificationSession {
  readonly controller = new AbortController();
  init: InitResponse | null = null;
  private readonly uploads = new Map<string, Upload>();
  /** Document and selfie captures held, so an expired session can be re-created and re-uploaded. */
  private readonly held = new Map<CaptureRole, Blob>();

  constructor(
    private readonly api: ApiClient,
    private readonly fields: InitFields,
    private readonly listener: SessionListener,
    private readonly now: () => number = () => Date.now() / 1000,
    private readonly backend?: SessionBackend,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /** The upload token of the verification's slots (the desktop's handoff calls use it). */
  get uploadToken(): string | null {
    return this.init?.uploads.docFront.headers['X-Service-Upload-Token'] ?? null;
  }

  /** init; errors (key, origin, credits, network) surface here, before any camera opens. */
  async start(): Promise<InitResponse> {
    this.init = this.backend ? await this.backend.open(this.signal) : await this.api.init(this.fields, this.signal);
    return this.init;
  }

  get expired(): boolean {
    return !this.init || this.now() >= this.init.expiresAt - EXPIRY_MARGIN_S;
  }

  /** Uploads a confirmed capture in the background; a retake of the same role replaces it. */
  put(role: CaptureRole, blob: Blob): void {
    this.held.set(role, blob);
    if (!this.init) return;
    this.send(role, this.init.uploads[role], blob);
  }

  /** Uploads one liveness frame (anchor or burst frame) and resolves when it is stored. */
  async putFrame(role: string, slot: UploadSlot, blob: Blob): Promise<void> {
    const upload = this.send(role, slot, blob, false);
    await upload.settled;
    if (upload.state === 'failed') throw upload.error;
  }

  private send(role: string, slot: UploadSlot, blob: Blob, background = true): Upload {
    this.uploads.get(role)?.controller.abort();
    const controller = new AbortController();
    const stop = () => controller.abort();
    this.signal.addEventListener('abort', stop, { once: true });
    const upload: Upload = { slot, blob, state: 'running', sent: 0, controller, settled: Promise.resolve() };
    upload.settled = this.api
      .upload(
        slot,
        blob,
        (f) => {
          upload.sent = f * blob.size;
          this.reportProgress();
        },
        controller.signal,
      )
      .then(
        () => {
          upload.state = 'done';
          upload.sent = blob.size;
          this.reportProgress();
        },
        (err: unknown) => {
          upload.state = 'failed';
          upload.error = err;
          // Replaced by a retake, or cancelled: not a failure of the flow.
          if (err instanceof AbortedError || this.uploads.get(role) !== upload) return;
          if (background) this.listener.onUploadFailed(err);
        },
      )
      .finally(() => this.signal.removeEventListener('abort', stop));
    this.uploads.set(role, upload);
    return upload;
  }

  private reportProgress(): void {
    let sent = 0;
    let total = 0;
    for (const u of this.uploads.values()) {
      sent += u.sent;
      total += u.blob.size;
    }
    if (total > 0) this.listener.onProgress?.(sent / total);
  }

  /** True when every held capture's upload finished. */
  get allUploaded(): boolean {
    return [...this.held.keys()].every((role) => this.uploads.get(role)?.state === 'done');
  }

  /**
   * Uploads again whatever did not reach the server (after "Try again"), or, when the slots have
   * expired, inits again and re-uploads every held capture. Returns false when the liveness frames
   * were lost with the old verification (the challenge must be run again).
   */
  async resume(): Promise<{ renewed: boolean }> {
    if (this.expired) {
      for (const u of this.uploads.values()) u.controller.abort();
      this.uploads.clear();
      await this.start();
      for (const [role, blob] of this.held) this.send(role, this.init!.uploads[role], blob);
      return { renewed: true };
    }
    for (const [role, blob] of this.held) {
      if (this.uploads.get(role)?.state !== 'done' && this.uploads.get(role)?.state !== 'running')
        this.send(role, this.init!.uploads[role], blob);
    }
    return { renewed: false };
  }

  /** Waits for the last upload, then submits. */
  async submit(): Promise<{ verificationId: string; status: 'queued' | 'processing' | 'completed' }> {
    if (this.expired) await this.resume();
    const roles = [...this.held.keys()];
    for (const role of roles) {
      const upload = this.uploads.get(role);
      if (!upload) throw new FlowError({ code: 'internal_error', message: `no upload for ${role}` });
      await upload.settled;
      if (this.aborted) throw new AbortedError();
      if (upload.state === 'failed') throw upload.error;
    }
    const init = this.init!;
    const keys = {
      docFront: init.uploads.docFront.key,
      selfie: init.uploads.selfie.key,
      ...(this.held.has('docBack') ? { docBack: init.uploads.docBack.key } : {}),
    };
    const submitted = this.backend
      ? await this.backend.submit(init, keys, this.signal)
      : await this.api.submit(init.verificationId, keys, this.signal);
    // A repeat submit could report `failed`; the event's type allows queued/processing/completed.
    const status = submitted.status === 'failed' ? 'processing' : submitted.status;
    return { verificationId: init.verificationId, status };
  }

  /** Cancel: every request in flight is aborted, nothing more is sent. */
  abort(): void {
    this.controller.abort();
  }
}
