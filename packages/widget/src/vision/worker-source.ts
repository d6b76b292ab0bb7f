import source from 'virtual:frame-worker';

/**
 * The frame worker's code (vision/frame-worker.ts, built on its own by vite.config.ts) as text,
 * in a chunk of its own: loaded when a camera step first needs the worker.
 */
export function workerSource(): string {
  return source;
}
