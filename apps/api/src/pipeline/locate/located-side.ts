import { straighten, type DecodedImage, type Region } from '../decode/decode.js';
import type { FaceResult } from '../read/faces/faces.js';
import { estimateSkew } from './skew.js';
import type { Turn } from './document-turn.js';

/**
 * A document side as the readers see it: the picture as decoded (turned by `turn` from the photo as
 * taken), its text lines levelled once for every reader, and the portrait found on it. Made once
 * per side and turn; every reading of that side shares it.
 */
export class LocatedSide {
  private skewing: Promise<number> | null = null;
  private levelling: Promise<DecodedImage> | null = null;

  constructor(
    readonly which: 'front' | 'back',
    /** The side's picture (turned by `turn`). */
    readonly image: DecodedImage,
    /** Degrees clockwise from the photo as taken. */
    readonly turn: Turn,
    /** The photo as taken (before `turn`), for the readers that need its own resolution. */
    readonly asTaken: DecodedImage,
    /** The printed portrait, where the face stage found one (its box relative to `image`). */
    readonly portrait: Promise<FaceResult | null>,
  ) {}

  /** The degrees that level the side's text lines (0 under a degree off: not worth a resampling). */
  skew(): Promise<number> {
    return (this.skewing ??= estimateSkew(this.image).then((d) => (Math.abs(d) >= 1 ? d : 0)));
  }

  /** The side turned so its text lines are level (the side itself when they already are). */
  levelled(): Promise<DecodedImage> {
    return (this.levelling ??= this.skew().then((d) => (d ? straighten(this.image, d) : this.image)));
  }

  /** The portrait's face box as a region, or `fallback` (a side without a portrait: its middle). */
  async portraitRegion(fallback: Region = MIDDLE): Promise<Region> {
    const face = await this.portrait;
    return face ? regionOf(face.box) : fallback;
  }
}

/** The middle of a photo: a side without a portrait (a card's back) is looked for around it. */
export const MIDDLE: Region = { left: 0.4, top: 0.4, width: 0.2, height: 0.2 };

/** A face box (relative [x, y, w, h]) as a region. */
export const regionOf = ([left, top, width, height]: readonly [number, number, number, number]): Region => ({ left, top, width, height });
