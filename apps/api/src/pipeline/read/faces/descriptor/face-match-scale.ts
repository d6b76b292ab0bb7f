/**
 * The contract reports `face_match` in [0, 1]; the descriptor's cosine is -1..1 and narrow where it
 * matters (the real-face set, evaluation/src/faces/README.md: genuine cross-photo pairs at
 * 0.86-0.97, 99% of hard impostors under 0.925, 99.9% under 0.940). The map is piecewise linear
 * and strictly increasing, so every line on one scale is a line on the other:
 *
 *   cosine -1 .. KNEE  ->  score 0 .. KNEE_SCORE   (other people: one slope, little room)
 *   cosine KNEE .. 1   ->  score KNEE_SCORE .. 1   (where people are told apart: 4 per cosine unit)
 *
 * So cosine 0.85 -> 0.40, 0.925 -> 0.70, 0.940 -> 0.76, 1 -> 1. Three decimals of the score keep
 * the cosine's to within 0.00025.
 */
export const KNEE = 0.8;
export const KNEE_SCORE = 0.2;

/** The cosine of two descriptors on the contract's 0-1 scale. */
export function faceMatchScore(cosine: number): number {
  const c = Math.max(-1, Math.min(1, cosine));
  return c < KNEE ? ((c + 1) / (KNEE + 1)) * KNEE_SCORE : KNEE_SCORE + ((c - KNEE) / (1 - KNEE)) * (1 - KNEE_SCORE);
}

/** The cosine a score stands for (the inverse of `faceMatchScore`): how the policy's lines read. */
export function cosineOfScore(score: number): number {
  const s = Math.max(0, Math.min(1, score));
  return s < KNEE_SCORE ? (s / KNEE_SCORE) * (KNEE + 1) - 1 : KNEE + ((s - KNEE_SCORE) / (1 - KNEE_SCORE)) * (1 - KNEE);
}
