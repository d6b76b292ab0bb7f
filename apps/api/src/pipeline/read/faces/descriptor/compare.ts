/**
 * How two faces' descriptors are compared, apart from the models (the pipeline's thread uses it
 * without loading them).
 */
import type { FaceResult } from '../faces.js';
import { faceMatchScore } from './face-match-scale.js';

/**
 * Cosine similarity of two descriptors, -1..1 (genuine pairs of the real-face set score about
 * 0.85-0.97, impostors under about 0.85: the lines come from the measurement, not from here).
 */
export function similarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error('descriptors of different lengths');
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** `FaceAnalyzer.similarity` without the models: the descriptors' cosine on the 0-1 scale. */
export function embeddingSimilarity(a: number[], b: number[]): number {
  if (!a.length || !b.length) return 0;
  return faceMatchScore(similarity(Float32Array.from(a), Float32Array.from(b)));
}

/**
 * The two descriptors a portrait and a selfie are compared by, or null where either has none (a
 * meshless selfie face: review). The rule measured best on the real-face set (`greyIfGrey`,
 * evaluation/src/faces/README.md): both in colour, but the selfie in grey where the portrait is
 * printed in grey (grey everywhere: GAR at FAR 0.1% 67% against 76%).
 */
export function comparedEmbeddings(
  portrait: Pick<FaceResult, 'embedding' | 'grey'>,
  selfie: Pick<FaceResult, 'embedding' | 'greyEmbedding'>,
): [number[], number[]] | null {
  if (!portrait.embedding.length || !selfie.embedding.length) return null;
  return [portrait.embedding, portrait.grey === true && selfie.greyEmbedding?.length ? selfie.greyEmbedding : selfie.embedding];
}
