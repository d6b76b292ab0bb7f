import type { DecodedImage } from '../../decode/decode.js';
import type { FaceResult } from './faces.js';

/**
 * What the pipeline and the liveness judgement ask of the face models: the port that
 * `FaceAnalyzer` (models on the calling thread) and `FaceThread` (models on a worker thread of
 * their own) both implement.
 */
export interface FaceModels {
  /** The most confident face of a decoded image scaled to at most `maxSide` px, or null. */
  analyse(image: DecodedImage, maxSide?: number, opts?: { embedding?: boolean }): Promise<FaceResult | null>;
  /**
   * The portrait on a document photo (located first, then analysed on a crop around it), or null.
   * `searchTiles` says, when the whole picture gave no face, whether its tiles are searched too
   * (default yes): it may be a promise, decided while the whole picture is analysed.
   */
  analyseDocument(img: DecodedImage, opts?: { searchTiles?: boolean | Promise<boolean> }): Promise<FaceResult | null>;
  /** The face of a selfie (the whole picture, then squares of it when none is found there), or null. */
  analyseSelfie(img: DecodedImage): Promise<FaceResult | null>;
  /** Similarity of two descriptors in [0, 1] (their cosine mapped by `faceMatchScore`). */
  similarity(a: number[], b: number[]): Promise<number>;
}
