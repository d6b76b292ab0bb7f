import { DOCUMENT_QUALITY_LINES as LINES, type DocumentGuidance } from '@service/contract';
import { halve, measureQuality, motionBetween, thumbnail, type Grey, type QualityMeasures } from './document-measures.js';
import { findDocument, type DocumentQuad } from './find-document.js';

export { MEASURE_WIDTH } from './document-measures.js';

/** The `data-guidance` values (the contract's DOCUMENT_GUIDANCE_STATES). */
export type Guidance = DocumentGuidance;

/**
 * The guidance's own lines. Quality is held to the pipeline's lines with a margin (a frame just
 * over a line may be a photo just under it), as the liveness step asks a little more than the
 * server's pose line.
 */
export const GUIDANCE_LINES = {
  /** The document should span at least about half the frame's width. */
  minWidthShare: 0.5,
  /** Sharpness at least this many times the pipeline's line. */
  sharpnessMargin: 1.25,
  /** Highlights at least this far above the pipeline's darkness line. */
  highlightsMargin: 15,
  /** Glare: burn-out at most this share of the pipeline's lines. */
  glareMargin: 0.75,
  /** Moving: consecutive frames' thumbnails differ by more than this (grey levels, mean) ... */
  maxMotion: 3,
  /** ... or a corner moved by more than this share of the frame. */
  maxCornerShift: 0.015,
  /** Automatic capture once `ready` has held this long. */
  autoCaptureMs: 800,
} as const;

/** One frame's reading: the pipeline's measures, the document's place, and the movement since the frame before. */
export interface FrameReading extends QualityMeasures {
  quad: DocumentQuad['corners'] | null;
  widthShare: number;
  motion: number;
  cornerShift: number;
}

/** What is kept from one frame to judge the next one's movement. */
export interface FrameMemory {
  thumb: Grey;
  quad: DocumentQuad['corners'] | null;
}

/** Reads one frame, given as grey at MEASURE_WIDTH (see document-measures.ts). */
export function readFrame(grey: Grey, before: FrameMemory | null): { reading: FrameReading; memory: FrameMemory } {
  const quality = measureQuality(grey);
  const doc = findDocument(halve(grey));
  const thumb = thumbnail(grey);
  const cornerShift =
    doc && before?.quad ? Math.max(...doc.corners.map((p, i) => Math.hypot(p[0] - before.quad![i]![0], p[1] - before.quad![i]![1]))) : 0;
  return {
    reading: {
      ...quality,
      quad: doc?.corners ?? null,
      widthShare: doc?.widthShare ?? 0,
      // The first frame has nothing to move against: the next ones judge it.
      motion: before ? motionBetween(before.thumb, thumb) : 0,
      cornerShift,
    },
    memory: { thumb, quad: doc?.corners ?? null },
  };
}

/** What to tell the user about this frame, the most pressing first. */
export function adviceFor(r: FrameReading): Guidance {
  const g = GUIDANCE_LINES;
  if (r.highlights < LINES.minHighlights + g.highlightsMargin) return 'too_dark';
  if (!r.quad) return 'searching';
  if (r.widthShare < g.minWidthShare) return 'move_closer';
  const washedOut = r.darkest > LINES.washedOutDarkest;
  if (washedOut || r.clipped > g.glareMargin * LINES.maxClipped || r.lampShaped > g.glareMargin * LINES.maxLampShaped) return 'glare';
  if (r.motion > g.maxMotion || r.cornerShift > g.maxCornerShift || r.sharpness < g.sharpnessMargin * LINES.minSharpness) {
    return 'hold_still';
  }
  return 'ready';
}
