import { LIMITS, type ChallengeBeacon, type InitResponse, type UploadSlot } from '@service/contract';
import { AbortedError, apiFlowError, FlowError, type ApiErrorBody } from './errors.js';

export { AbortedError, isAborted } from './errors.js';

export interface InitFields {
  userRef?: string;
  submittedFullName?: string;
  documentType?: string;
  country?: string;
  activeLiveness?: boolean;
}

/** Waits used between upload attempts; injectable so tests can observe them. Resolves early on abort. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;
/** Waits at least `ms` on the page's clock: a timer that fires early (browsers may, by a few ms) waits out the rest. */
const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    const until = performance.now() + ms;
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const left = until - performance.now();
      if (left <= 0) return resolve();
      timer = setTimeout(tick, Math.ceil(left));
    };
    timer = setTimeout(tick, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

const UPLOAD_TIMEOUT_MS = 30_000;

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new AbortedError();
}

async function readBody(res: Response): Promise<ApiErrorBody | null> {
  try {
    return (await res.json()) as ApiErrorBody;
  } catch {
    return null;
  }
}

/**
 * The widget's calls: init with the publishable key, slot uploads with retry, challenge beacons,
 * submit. Every call takes an AbortSignal: Cancel aborts the requests in flight.
 */
export class ApiClient {
  constructor(
    private readonly base: string,
    private readonly key: string,
    private readonly sleep: Sleep = realSleep,
  ) {}

  /** One call; a non-2xx answer becomes its FlowError (the API's code kept in `apiError`). */
  async request<T>(url: string, init: RequestInit, context: string, signal?: AbortSignal): Promise<T> {
    checkAborted(signal);
    let res: Response;
    try {
      res = await fetch(url, { ...init, ...(signal ? { signal } : {}) });
    } catch {
      checkAborted(signal);
      throw new FlowError({ code: 'api_unreachable', message: `${context} failed: network error` });
    }
    if (!res.ok) throw apiFlowError(res.status, await readBody(res), context);
    return (await res.json()) as T;
  }

  private post<T>(path: string, body: unknown, context: string, signal?: AbortSignal): Promise<T> {
    return this.request<T>(
      `${this.base}${path}`,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      },
      context,
      signal,
    );
  }

  init(fields: InitFields, signal?: AbortSignal): Promise<InitResponse> {
    return this.post<InitResponse>('/v1/verify/init', fields, 'init', signal);
  }

  submit(verificationId: string, keys: { docFront: string; selfie: string; docBack?: string }, signal?: AbortSignal) {
    return this.post<{ verificationId: string; status: 'queued' | 'processing' | 'completed' | 'failed' }>(
      '/v1/verify/submit',
      { verificationId, keys },
      'submit',
      signal,
    );
  }

  /** The next liveness beacon (upload-token auth; safe to repeat). */
  challenge(url: string, token: string, signal?: AbortSignal): Promise<ChallengeBeacon> {
    return this.request<ChallengeBeacon>(url, { method: 'GET', headers: { 'X-Service-Upload-Token': token } }, 'challenge', signal);
  }

  /**
   * PUT to a slot with its headers verbatim plus `X-Service-Capture-Source: camera`. At most 3
   * attempts, waiting 400 ms then 1200 ms, and only after a transient failure (network error,
   * timeout, abort, 5xx); a 4xx fails at once with its API error. The caller's abort stops
   * everything at once (the request in flight is aborted, no further attempt).
   */
  async upload(slot: UploadSlot, blob: Blob, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<void> {
    const attempts = LIMITS.widgetUploadAttempts;
    let last = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      checkAborted(signal);
      const outcome = await putOnce(slot, blob, onProgress, signal);
      checkAborted(signal);
      if (outcome.kind === 'ok') return;
      if (outcome.kind === 'permanent') throw apiFlowError(outcome.status, outcome.body, 'upload');
      last = outcome.reason;
      if (attempt < attempts) await this.sleep(LIMITS.widgetUploadBackoffMs[attempt - 1]!, signal);
    }
    throw new FlowError({ code: 'upload_failed', message: `upload failed after ${attempts} attempts: ${last}` });
  }
}

type PutOutcome = { kind: 'ok' } | { kind: 'transient'; reason: string } | { kind: 'permanent'; status: number; body: ApiErrorBody | null };

/** One attempt through XMLHttpRequest, for upload progress events. */
function putOnce(slot: UploadSlot, blob: Blob, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<PutOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(slot.method, slot.url);
    for (const [name, value] of Object.entries(slot.headers)) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('X-Service-Capture-Source', 'camera');
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = (outcome: PutOutcome) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return done({ kind: 'ok' });
      if (xhr.status >= 500) return done({ kind: 'transient', reason: `HTTP ${xhr.status}` });
      let body: ApiErrorBody | null = null;
      try {
        body = JSON.parse(xhr.responseText) as ApiErrorBody;
      } catch {
        /* not JSON */
      }
      done({ kind: 'permanent', status: xhr.status, body });
    };
    xhr.onerror = () => done({ kind: 'transient', reason: 'network error' });
    xhr.ontimeout = () => done({ kind: 'transient', reason: 'timeout' });
    xhr.onabort = () => done({ kind: 'transient', reason: 'aborted' });
    xhr.send(blob);
  });
}
