import { fromDecoded, type DecodedImage, type Region } from './decode.js';

/**
 * A document photographed a quarter or half turn from upright, with no orientation tag to say so
 * (a card laid upside down on the desk, a phone held sideways by a browser that drops the tag):
 * the turns it is read again at, and the geometry between the turned picture and the one taken.
 */

/** Degrees clockwise. */
export type Turn = 0 | 90 | 180 | 270;

/**
 * From this roll (degrees) a document's portrait lies on its side. A portrait turned a quarter
 * clockwise measures a roll of 77-83 (heldout-f0c5's genuine fronts, turned); upright ones ±15.
 */
const ON_ITS_SIDE = 45;

/** From this score a portrait found upright is surely a face (faces.ts, `DOCUMENT_SURE_SCORE`). */
const SURE_FACE = 0.8;

/**
 * The turns to read a document at, most likely first, from the portrait found on it as taken:
 * - lying on its side: the quarter turn that sets it upright, then the others;
 * - upright and sure: a half turn only. The page is the right way up, or upside down with a face
 *   found in it all the same (one of 10 genuine fronts of heldout-f0c5 turned a half); a photo of
 *   a screen that reads as nothing had been read three times more for nothing;
 * - none, or unsure: a half turn (no face upright is found on most pages upside down), then the
 *   two quarters (a portrait on its side is missed now and then: 2 of 10).
 */
export function turnsToTry(portrait: { roll: number; score: number } | null): Turn[] {
  if (portrait && portrait.roll > ON_ITS_SIDE) return [270, 180, 90];
  if (portrait && portrait.roll < -ON_ITS_SIDE) return [90, 180, 270];
  if (portrait && portrait.score >= SURE_FACE) return [180];
  return [180, 90, 270];
}

/** The decoded picture turned `turn` degrees clockwise; its size as taken turned with it. */
export async function turned(img: DecodedImage, turn: Turn): Promise<DecodedImage> {
  if (turn === 0) return img;
  const { data, info } = await fromDecoded(img).rotate(turn).raw().toBuffer({ resolveWithObject: true });
  const quarter = turn !== 180;
  return {
    width: quarter ? img.height : img.width,
    height: quarter ? img.width : img.height,
    pixels: data,
    pixelWidth: info.width,
    pixelHeight: info.height,
  };
}

/** A region of the picture turned `turn` degrees clockwise (relative), on the picture as taken. */
export function regionAsTaken(r: Region, turn: Turn): Region {
  switch (turn) {
    case 0:
      return r;
    case 90:
      return { left: r.top, top: 1 - r.left - r.width, width: r.height, height: r.width };
    case 180:
      return { left: 1 - r.left - r.width, top: 1 - r.top - r.height, width: r.width, height: r.height };
    case 270:
      return { left: 1 - r.top - r.height, top: r.left, width: r.height, height: r.width };
  }
}
