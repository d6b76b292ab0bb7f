/** Scores of genuine and impostor pairs, and the figures read off them (higher score: more alike). */
export interface Scored {
  genuine: number[];
  impostor: number[];
}

/**
 * The lowest line at which at most `far` of the impostors score at or above it: with n impostors,
 * the line sits just above the floor(far * n)-th highest impostor score (so none may pass when
 * far * n < 1). Genuine pairs at or above the line are accepted.
 */
export function lineAtFar(impostor: readonly number[], far: number): number {
  if (impostor.length === 0) throw new Error('no impostor scores');
  const sorted = [...impostor].sort((a, b) => b - a);
  const allowed = Math.floor(far * sorted.length);
  // The (allowed+1)-th highest impostor must fall below the line.
  const blocker = sorted[allowed];
  return blocker === undefined ? -Infinity : nextAbove(blocker);
}

/** The smallest double greater than x: a line just above an impostor's score keeps it out. */
function nextAbove(x: number): number {
  return x + Math.max(Number.EPSILON, Math.abs(x) * Number.EPSILON);
}

export const acceptRate = (scores: readonly number[], line: number) =>
  scores.length ? scores.filter((s) => s >= line).length / scores.length : NaN;

export interface RocPoint {
  far: number;
  line: number;
  gar: number;
  /** Impostors actually at or above the line. */
  impostorsAccepted: number;
}

/** GAR at each target FAR; the FAR actually reached is impostorsAccepted / impostor count. */
export function rocPoints(s: Scored, fars: readonly number[] = [0.1, 0.05, 0.01, 0.001]): RocPoint[] {
  return fars.map((far) => {
    const line = lineAtFar(s.impostor, far);
    return { far, line, gar: acceptRate(s.genuine, line), impostorsAccepted: s.impostor.filter((x) => x >= line).length };
  });
}

/** Area under the ROC: the chance a random genuine pair outscores a random impostor (ties count half). */
export function auc(s: Scored): number {
  let wins = 0;
  for (const g of s.genuine) for (const i of s.impostor) wins += g > i ? 1 : g === i ? 0.5 : 0;
  return wins / (s.genuine.length * s.impostor.length);
}
