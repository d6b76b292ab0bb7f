import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DecodedImage } from '../../decode/decode.js';
import type { FaceModels } from './face-models.js';
import type { FaceCall, FaceReply, SearchTilesNotice } from './face-thread-protocol.js';
import type { FaceResult } from './faces.js';
import { API_ROOT } from '../../../paths.js';

/** Both src/ and dist/ sit two levels below the package: the thread always runs the built JS. */
const WORKER = pathToFileURL(path.join(API_ROOT, 'dist', 'pipeline', 'read', 'faces', 'face-thread-worker.js'));

type Pending = { resolve(value: unknown): void; reject(err: Error): void };

/**
 * The face models on a worker thread of their own (`face-thread-worker.ts`). On the pipeline's
 * thread their WebAssembly calls (20-200 ms each, never yielding) held up everything else: the
 * skew and binarisation of the MRZ pages, and the writes that hand a page to an OCR engine, so the
 * engines sat idle while faces were found (a passport's zone was read only after both faces).
 * Here the two go on side by side. Pixels are copied across, not transferred (the caller's feed
 * the OCR stages too): a 2048 px image in about 3 ms.
 *
 * A thread that dies fails the calls it held (the run fails and is retried, as on any error) and
 * is started again for the next call.
 */
export class FaceThread implements FaceModels {
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stopped = false;

  private constructor() {}

  /** Starts the thread and waits until its models are loaded. */
  static async start(): Promise<FaceThread> {
    const thread = new FaceThread();
    await thread.started();
    return thread;
  }

  analyse(image: DecodedImage, maxSide = 512, opts: { embedding?: boolean } = {}): Promise<FaceResult | null> {
    return this.call({ op: 'analyse', image, maxSide, embedding: opts.embedding ?? true }) as Promise<FaceResult | null>;
  }

  analyseDocument(img: DecodedImage, opts: { searchTiles?: boolean | Promise<boolean> } = {}): Promise<FaceResult | null> {
    // The thread waits for this answer only once the whole picture gave no face; a decision that
    // fails to come searches the tiles, as without one.
    const decided = Promise.resolve(opts.searchTiles ?? true).catch(() => true);
    return this.call({ op: 'analyseDocument', image: img }, (worker, call) => {
      void decided.then((search) => worker.postMessage({ op: 'searchTiles', call, search } satisfies SearchTilesNotice));
    }) as Promise<FaceResult | null>;
  }

  analyseSelfie(img: DecodedImage): Promise<FaceResult | null> {
    return this.call({ op: 'analyseSelfie', image: img }) as Promise<FaceResult | null>;
  }

  similarity(a: number[], b: number[]): Promise<number> {
    return this.call({ op: 'similarity', a, b }) as Promise<number>;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    for (const p of this.pending.values()) p.reject(new Error('face thread stopped'));
    this.pending.clear();
    await worker?.terminate();
  }

  /** Posts a call; `then` runs once it is posted (with the worker and the call's id). */
  private async call(body: DistributiveOmit<FaceCall, 'id'>, then?: (worker: Worker, id: number) => void): Promise<unknown> {
    if (this.stopped) throw new Error('face thread stopped');
    const worker = await this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...body, id } as FaceCall);
      then?.(worker, id);
    });
  }

  private started(): Promise<Worker> {
    this.ready ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(WORKER);
      // The pipeline's process ends when its work does: this thread does not hold it open.
      worker.unref();
      this.worker = worker;
      worker.on('message', (m: FaceReply) => {
        if (m.kind === 'ready') return resolve(worker);
        if (m.kind === 'failed') return reject(new Error(`face models did not load: ${m.message}`));
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.kind === 'result') p.resolve(m.value);
        else p.reject(new Error(m.message));
      });
      const gone = (err: Error) => {
        if (this.worker !== worker) return;
        this.worker = null;
        this.ready = null;
        reject(err);
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      };
      worker.on('error', gone);
      worker.on('exit', (code) => gone(new Error(`face thread exited (${code})`)));
    });
    return this.ready;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
