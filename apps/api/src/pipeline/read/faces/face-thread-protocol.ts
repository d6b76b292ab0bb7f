import type { FaceResult } from './faces.js';

/** A decoded image as it crosses to the face thread (its pixels copied, the caller keeps its own). */
export interface WireImage {
  width: number;
  height: number;
  pixels: Uint8Array;
  pixelWidth: number;
  pixelHeight: number;
}

/** A call to the face thread. */
export type FaceCall =
  | { id: number; op: 'analyse'; image: WireImage; maxSide: number; embedding: boolean }
  | { id: number; op: 'analyseDocument'; image: WireImage }
  | { id: number; op: 'analyseSelfie'; image: WireImage }
  | { id: number; op: 'similarity'; a: number[]; b: number[] };

/**
 * Not a call (nothing is answered): whether the document call `call` searches its picture's tiles,
 * sent once after that call, when the caller knows.
 */
export interface SearchTilesNotice {
  op: 'searchTiles';
  call: number;
  search: boolean;
}

/** What the face thread answers: once `ready` (or `failed` to load), then one reply per call. */
export type FaceReply =
  | { kind: 'ready' }
  | { kind: 'failed'; message: string }
  | { kind: 'result'; id: number; value: FaceResult | null | number }
  | { kind: 'error'; id: number; message: string };
