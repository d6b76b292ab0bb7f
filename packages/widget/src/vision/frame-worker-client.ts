import type { FrameReading, Guidance } from '../guidance/advice.js';
import type { Detection, Encoded, FaceReading, GuideAnswer } from './vision.js';
import { workerSource } from './worker-source.js';

interface WorkerAnswer {
  advice?: Guidance;
  reading?: FrameReading;
  ok?: boolean;
  failed?: boolean;
  face?: FaceReading | null;
  luma?: number;
  ms?: number;
  blob?: Blob;
  width?: number;
  height?: number;
  blurry?: boolean;
}

/** Longest side a frame is scaled to before it crosses to the worker for face detection. */
const DETECT_SIDE = 480;

/**
 * The frame worker: photo encoding and blur measure at every capture, the document guidance's
 * readings, and the face models loaded lazily the first time a selfie or liveness step needs them. The main thread only takes an
 * ImageBitmap of the frame (asynchronous) and transfers it.
 */
export class FrameWorker {
  private next = 1;
  private readonly waiting = new Map<number, (data: WorkerAnswer) => void>();
  private faces: Promise<boolean> | null = null;
  private dead = false;
  /** The track whose frames the worker reads directly, if any. */
  private track: MediaStreamTrack | null = null;

  private constructor(private readonly worker: Worker) {
    worker.onmessage = ({ data }: MessageEvent<WorkerAnswer & { id: number }>) => {
      this.waiting.get(data.id)?.(data);
      this.waiting.delete(data.id);
    };
    // A worker the page's policy refuses fails after construction: every call then answers at once.
    worker.onerror = () => {
      this.dead = true;
      for (const resolve of this.waiting.values()) resolve({ failed: true });
      this.waiting.clear();
    };
  }

  /** Starts the worker from its code; null where workers cannot start. */
  static create(): FrameWorker | null {
    try {
      const url = URL.createObjectURL(new Blob([workerSource()], { type: 'text/javascript' }));
      const worker = new Worker(url, { type: 'module' });
      URL.revokeObjectURL(url);
      return new FrameWorker(worker);
    } catch {
      return null; // a page whose CSP forbids blob: workers
    }
  }

  private call(message: object, transfer: Transferable[] = []): Promise<WorkerAnswer> {
    if (this.dead) return Promise.resolve({ failed: true });
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  /**
   * Hands the camera track's frames to the worker (MediaStreamTrackProcessor, where the browser
   * has it): captures and readings then cost the main thread nothing. Returns false elsewhere.
   */
  attach(track: MediaStreamTrack): boolean {
    const Processor = (
      globalThis as { MediaStreamTrackProcessor?: new (init: { track: MediaStreamTrack }) => { readable: ReadableStream } }
    ).MediaStreamTrackProcessor;
    if (!Processor) return false;
    try {
      const { readable } = new Processor({ track });
      this.worker.postMessage({ type: 'stream', readable }, [readable as unknown as Transferable]);
      this.track = track;
      return true;
    } catch {
      return false;
    }
  }

  private live(source: HTMLVideoElement): boolean {
    const stream = source.srcObject as MediaStream | null;
    return this.track !== null && this.track.readyState === 'live' && stream?.getVideoTracks()[0] === this.track;
  }

  /** Starts loading the face models (idempotent); resolves false when they cannot run here. */
  loadFaces(base: string): Promise<boolean> {
    this.faces ??= this.call({ type: 'load', base }).then((a) => a.ok === true);
    return this.faces;
  }

  /** Scales, measures blur and encodes one frame as JPEG (at most `maxBytes`), in the worker. */
  async encode(source: HTMLVideoElement, maxSide: number, blur: boolean, maxBytes: number): Promise<Encoded | null> {
    if (this.live(source)) {
      const a = await this.call({ type: 'encode', live: true, maxSide, blur, maxBytes });
      if (a.blob) return { blob: a.blob, width: a.width!, height: a.height!, blurry: a.blurry === true };
    }
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(source);
    } catch {
      return null;
    }
    const a = await this.call({ type: 'encode', bitmap, maxSide, blur, maxBytes }, [bitmap]);
    return a.blob ? { blob: a.blob, width: a.width!, height: a.height!, blurry: a.blurry === true } : null;
  }

  /** One reading of the document guidance on the live frame; null when no frame could be read. */
  async guide(source: HTMLVideoElement): Promise<GuideAnswer | null> {
    let a: WorkerAnswer;
    if (this.live(source)) a = await this.call({ type: 'guide', live: true });
    else {
      const w = source.videoWidth;
      const h = source.videoHeight;
      if (!w || !h) return null;
      let bitmap: ImageBitmap;
      try {
        // Scaled by the browser on the way (asynchronous): the main thread copies no pixels.
        bitmap = await createImageBitmap(source, { resizeWidth: 1024, resizeHeight: Math.round((h / w) * 1024), resizeQuality: 'low' });
      } catch {
        return null;
      }
      a = await this.call({ type: 'guide', bitmap }, [bitmap]);
    }
    return a.advice && a.reading ? { advice: a.advice, reading: a.reading, ms: a.ms ?? 0 } : null;
  }

  /** Reads one live frame, or a photo already taken. Null when it could not be read. */
  async detect(source: HTMLVideoElement | Blob): Promise<Detection | null> {
    if (source instanceof Blob) {
      const a = await this.call({ type: 'detect', blob: source });
      return a.failed ? null : { face: a.face ?? null, luma: a.luma ?? 255, ms: a.ms ?? 0 };
    }
    if (this.live(source)) {
      const a = await this.call({ type: 'detect', live: true, maxSide: DETECT_SIDE });
      return a.failed ? null : { face: a.face ?? null, luma: a.luma ?? 255, ms: a.ms ?? 0 };
    }
    const w = source.videoWidth;
    const h = source.videoHeight;
    if (!w || !h) return null;
    const scale = Math.min(1, DETECT_SIDE / Math.max(w, h));
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(source, {
        resizeWidth: Math.round(w * scale),
        resizeHeight: Math.round(h * scale),
        resizeQuality: 'low',
      });
    } catch {
      return null;
    }
    const a = await this.call({ type: 'detect', bitmap }, [bitmap]);
    return a.failed ? null : { face: a.face ?? null, luma: a.luma ?? 255, ms: a.ms ?? 0 };
  }
}
