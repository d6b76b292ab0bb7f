import {
  HEADERS,
  RETRYABLE_ERROR_CODES,
  type CaptureSource,
  type HandoffCancelResponse,
  type HandoffCreateResponse,
  type HandoffStatusResponse,
  type InitRequest,
  type InitResponse,
  type RedactResponse,
  type ResultRecord,
  type SubmitRequest,
  type SubmitResponse,
  type UploadResponse,
  type UploadSlot,
} from '@service/contract';
import { ConnectionError, errorFromResponse, VerdictTimeoutError, type ServiceError } from './errors.js';
import { verify, type WebhookVerifyOptions } from './webhooks.js';

export interface ServiceClientOptions {
  /** A secret key (`qv_sec_` / `qv_sect_`) on a server; a publishable key cannot read results. */
  apiKey: string;
  /** Where the API answers, e.g. `https://verify.example.com`. */
  baseUrl: string;
  /** Per attempt; default 30 s. */
  timeoutMs?: number;
  /** Automatic retries of `rate_limited`, `internal_error` and `backend_unavailable`; default 2. */
  maxRetries?: number;
  /** First backoff of a 5xx retry (doubled each time, with jitter); default 500 ms. */
  retryBaseDelayMs?: number;
  /** No wait is longer than this (a longer Retry-After fails at once); default 60 s. */
  maxRetryDelayMs?: number;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** What every call answered: its `X-Request-Id`, status and the waits before each retry. */
export interface CallInfo {
  method: string;
  path: string;
  status: number | null;
  requestId: string | null;
  attempts: number;
  retryDelaysMs: number[];
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** The typed client of the public API. */
export class ServiceClient {
  readonly verifications: Verifications;
  readonly webhooks = { verify };
  /** The last call's request id, status and retries (`onCall` sees every one). */
  lastCall: CallInfo | null = null;
  onCall: ((info: CallInfo) => void) | null = null;
  private readonly opts: Required<Omit<ServiceClientOptions, 'fetch'>> & { fetch: typeof fetch };

  constructor(options: ServiceClientOptions) {
    if (!options?.apiKey) throw new TypeError('ServiceClient: apiKey is required');
    if (!options.baseUrl) throw new TypeError('ServiceClient: baseUrl is required');
    this.opts = {
      timeoutMs: 30_000,
      maxRetries: 2,
      retryBaseDelayMs: 500,
      maxRetryDelayMs: 60_000,
      fetch: globalThis.fetch,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
    this.verifications = new Verifications(this);
  }

  /** One API call with the contract's retry rule: only the retryable codes, bounded. */
  async request<T>(
    method: string,
    pathOrUrl: string,
    init: { json?: unknown; body?: Uint8Array; headers?: Record<string, string>; auth?: boolean } & RequestOptions = {},
  ): Promise<T> {
    const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${this.opts.baseUrl}${pathOrUrl}`;
    const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
    if (init.auth !== false) headers.Authorization = `Bearer ${this.opts.apiKey}`;
    let body: string | Uint8Array | undefined = init.body;
    if (init.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const info: CallInfo = { method, path: new URL(url).pathname, status: null, requestId: null, attempts: 0, retryDelaysMs: [] };
    const report = () => {
      this.lastCall = info;
      this.onCall?.(info);
    };
    for (;;) {
      info.attempts += 1;
      const timeout = AbortSignal.timeout(init.timeoutMs ?? this.opts.timeoutMs);
      const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
      let res: Response;
      let parsed: unknown;
      try {
        res = await this.opts.fetch(url, { method, headers, body, signal });
        const text = await res.text();
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
      } catch (err) {
        report();
        const why = init.signal?.aborted ? 'aborted by the caller' : timeout.aborted ? 'timed out' : 'failed';
        throw new ConnectionError(`${method} ${info.path} ${why}`, null, { cause: err });
      }
      info.status = res.status;
      info.requestId = res.headers.get(HEADERS.requestId);
      if (res.ok) {
        report();
        return parsed as T;
      }
      const error = errorFromResponse(res.status, parsed, info.requestId);
      const delay = this.retryDelay(error, res, info.attempts);
      if (delay === null) {
        report();
        throw error;
      }
      info.retryDelaysMs.push(delay);
      await sleep(delay, init.signal);
    }
  }

  /** Milliseconds before the next attempt, or null when this answer is final. */
  private retryDelay(error: ServiceError, res: Response, attempts: number): number | null {
    if (!RETRYABLE_ERROR_CODES.includes(error.code) || attempts > this.opts.maxRetries) return null;
    let ms: number;
    if (error.code === 'rate_limited') {
      const seconds = Number(res.headers.get(HEADERS.retryAfter) ?? error.detail?.retry_after ?? 1);
      ms = (Number.isFinite(seconds) && seconds >= 0 ? seconds : 1) * 1000;
    } else {
      const base = this.opts.retryBaseDelayMs * 2 ** (attempts - 1);
      ms = base + Math.floor(Math.random() * base * 0.25);
    }
    return ms > this.opts.maxRetryDelayMs ? null : ms;
  }
}

export interface WaitOptions extends RequestOptions {
  /** Give up after this long (VerdictTimeoutError); default 120 s. */
  timeoutMs?: number;
  /** First poll interval, growing ×1.5 up to 5 s; default 500 ms (far under 600 results a minute). */
  intervalMs?: number;
}

const uploadToken = (init: Pick<InitResponse, 'uploads'>) => ({
  [HEADERS.uploadToken]: init.uploads.docFront.headers[HEADERS.uploadToken],
});

/** init, upload, submit, retrieve, waitForVerdict, redact, and the phone handoff's link. */
export class Verifications {
  constructor(private readonly client: ServiceClient) {}

  init(body: InitRequest = {}, options: RequestOptions = {}): Promise<InitResponse> {
    return this.client.request('POST', '/v1/verify/init', { json: body, ...options });
  }

  /** PUTs one JPEG to a slot init returned (the slot's upload token authenticates it). */
  upload(slot: UploadSlot, jpeg: Uint8Array, options: RequestOptions & { captureSource?: CaptureSource } = {}): Promise<UploadResponse> {
    return this.client.request('PUT', slot.url, {
      body: jpeg,
      headers: { ...slot.headers, ...(options.captureSource ? { [HEADERS.captureSource]: options.captureSource } : {}) },
      auth: false,
      ...options,
    });
  }

  submit(body: SubmitRequest, options: RequestOptions = {}): Promise<SubmitResponse> {
    return this.client.request('POST', '/v1/verify/submit', { json: body, ...options });
  }

  retrieve(verificationId: string, options: RequestOptions = {}): Promise<ResultRecord> {
    return this.client.request('GET', `/v1/verify/${encodeURIComponent(verificationId)}`, options);
  }

  /**
   * Erases the verification's images and personal data now (secret key); the result record stays
   * with `redactedAt`. Idempotent, so a retried call answers the first `redactedAt`.
   */
  redact(verificationId: string, options: RequestOptions = {}): Promise<RedactResponse> {
    return this.client.request('POST', `/v1/verify/${encodeURIComponent(verificationId)}/redact`, options);
  }

  /**
   * A link that lets the user continue this verification on a phone (`{base_url}/continue/<code>`,
   * valid until the intent expires): for a server that sends it by text or e-mail. Authenticated
   * by the verification's upload token (from its init), not by the API key.
   */
  createHandoff(
    init: Pick<InitResponse, 'verificationId' | 'uploads'>,
    options: RequestOptions & { documentBack?: boolean; locale?: string } = {},
  ): Promise<HandoffCreateResponse> {
    const { documentBack, locale, ...rest } = options;
    return this.client.request('POST', '/v1/verify/handoff', {
      json: { verificationId: init.verificationId, ...(documentBack !== undefined ? { documentBack } : {}), ...(locale ? { locale } : {}) },
      headers: uploadToken(init),
      auth: false,
      ...rest,
    });
  }

  /** The handoff's state: `waiting`, `in_progress` (a phone claimed it), `submitted` or `expired`. */
  handoffStatus(init: Pick<InitResponse, 'uploads'>, options: RequestOptions = {}): Promise<HandoffStatusResponse> {
    return this.client.request('GET', '/v1/verify/handoff/status', { headers: uploadToken(init), auth: false, ...options });
  }

  /** Revokes the verification's handoff link (and a phone's claim of it); idempotent. */
  cancelHandoff(init: Pick<InitResponse, 'uploads'>, options: RequestOptions = {}): Promise<HandoffCancelResponse> {
    return this.client.request('POST', '/v1/verify/handoff/cancel', { headers: uploadToken(init), auth: false, ...options });
  }

  /** Polls retrieve with backoff until `completed` or `failed`. */
  async waitForVerdict(verificationId: string, options: WaitOptions = {}): Promise<ResultRecord> {
    const deadline = Date.now() + (options.timeoutMs ?? 120_000);
    let interval = options.intervalMs ?? 500;
    for (;;) {
      const record = await this.retrieve(verificationId, { ...(options.signal ? { signal: options.signal } : {}) });
      if (record.status === 'completed' || record.status === 'failed') return record;
      const left = deadline - Date.now();
      if (left <= 0) throw new VerdictTimeoutError(verificationId, record.status);
      await sleep(Math.min(interval, left), options.signal);
      interval = Math.min(interval * 1.5, 5_000);
    }
  }
}

/** For a receiver that only verifies webhooks and holds no API key. */
export const webhooks = { verify };
export type { WebhookVerifyOptions };
