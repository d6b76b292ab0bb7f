import type { FrameReading, Guidance } from '../guidance/advice.js';
import type { FrameWorker } from './frame-worker-client.js';

/** One reading of a frame: the most confident face (box in 0-1 of the frame), or null. */
export interface FaceReading {
  score: number;
  /** [x, y, width, height], each 0-1 of the frame. */
  box: [number, number, number, number];
  /** Degrees, unmirrored as the camera sees: the user turning to their left lowers yaw. */
  yaw: number;
  /** Degrees: looking down raises pitch. */
  pitch: number;
}

export interface Detection {
  face: FaceReading | null;
  /** Mean brightness of the frame, 0-255. */
  luma: number;
  /** Time the worker spent on the face models for this frame (ms). */
  ms: number;
}

export interface Encoded {
  blob: Blob;
  width: number;
  height: number;
  blurry: boolean;
}

/** One reading of the document guidance (guidance/advice.ts), made in the worker. */
export interface GuideAnswer {
  advice: Guidance;
  reading: FrameReading;
  /** Time the worker spent on it (ms). */
  ms: number;
}

let shared: Promise<FrameWorker | null> | undefined;

/**
 * The page's one frame worker (null where workers cannot be started), started on first use: its
 * client and code are a chunk of their own, loaded when a camera step first needs them.
 */
export function frameWorker(): Promise<FrameWorker | null> {
  shared ??= import('./frame-worker-client.js').then(
    (m) => m.FrameWorker.create(),
    () => null,
  );
  return shared;
}

/** Starts the face models once per page; resolves to the worker when faces can be read here. */
export async function loadVision(base: string): Promise<FrameWorker | null> {
  const worker = await frameWorker();
  if (!worker) return null;
  return (await worker.loadFaces(base)) ? worker : null;
}
