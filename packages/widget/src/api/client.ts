import { LIMITS, type InitResponse, type UploadSlot } from '@service/contract';
import { apiFlowError, FlowError, type ApiErrorBody } from './errors.js';

export interface InitFields {
  userRef?: string;
  submittedFullName?: string;
  documentType?: string;
  country?: string;
  activeLiveness?: boolean;
}

/** Waits used between upload attempts; injectable so tests can observe them. */
export type Sleep = (ms: number) => Promise<void>;
const realSleep: Sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const UPLOAD_TIMEOUT_MS = 30_000;

async function readBody(res: Response): Promise<ApiErrorBody | null> {
  try {
    return (await res.json()) as ApiErrorBody;
  } catch {
    return null;
  }
}

/** The widget's three calls: init with the publishable key, slot uploads with retry, submit. */
export class ApiClient {
  constructor(
    private readonly base: string,
    private readonly key: string,
    private readonly sleep: Sleep = realSleep,
  ) {}

  private async post<T>(path: string, body: unknown, context: string): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch {
      throw new FlowError({ code: 'api_unreachable', message: `${context} failed: network error` });
    }
    if (!res.ok) throw apiFlowError(res.status, await readBody(res), context);
    return (await res.json()) as T;
  }

  init(fields: InitFields): Promise<InitResponse> {
    return this.post<InitResponse>('/v1/verify/init', fields, 'init');
  }

  submit(verificationId: string, keys: { docFront: string; selfie: string; docBack?: string }) {
    return this.post<{ verificationId: string; status: 'queued' | 'processing' | 'completed' }>('/v1/verify/submit', { verificationId, keys }, 'submit');
  }

  /**
   * PUT to a slot with its headers verbatim plus `X-Service-Capture-Source: camera`. At most 3
   * attempts, waiting 400 ms then 1200 ms, and only after a transient failure (network error,
   * timeout, abort, 5xx); a 4xx fails at once with its API error.
   */
  async upload(slot: UploadSlot, blob: Blob, onProgress: (fraction: number) => void): Promise<void> {
    const attempts = LIMITS.widgetUploadAttempts;
    let last = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const outcome = await putOnce(slot, blob, onProgress);
      if (outcome.kind === 'ok') return;
      if (outcome.kind === 'permanent') throw apiFlowError(outcome.status, outcome.body, 'upload');
      last = outcome.reason;
      if (attempt < attempts) await this.sleep(LIMITS.widgetUploadBackoffMs[attempt - 1]!);
    }
    throw new FlowError({ code: 'upload_failed', message: `upload failed after ${attempts} attempts: ${last}` });
  }
}

type PutOutcome = { kind: 'ok' } | { kind: 'transient'; reason: string } | { kind: 'permanent'; status: number; body: ApiErrorBody | null };

/** One attempt through XMLHttpRequest, for upload progress events. */
function putOnce(slot: UploadSlot, blob: Blob, onProgress: (fraction: number) => void): Promise<PutOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(slot.method, slot.url);
    for (const [name, value] of Object.entries(slot.headers)) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('X-Service-Capture-Source', 'camera');
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve({ kind: 'ok' });
      if (xhr.status >= 500) return resolve({ kind: 'transient', reason: `HTTP ${xhr.status}` });
      let body: ApiErrorBody | null = null;
      try {
        body = JSON.parse(xhr.responseText) as ApiErrorBody;
      } catch {
        /* not JSON */
      }
      resolve({ kind: 'permanent', status: xhr.status, body });
    };
    xhr.onerror = () => resolve({ kind: 'transient', reason: 'network error' });
    xhr.ontimeout = () => resolve({ kind: 'transient', reason: 'timeout' });
    xhr.onabort = () => resolve({ kind: 'transient', reason: 'aborted' });
    xhr.send(blob);
  });
}
