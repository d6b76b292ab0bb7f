import { fromDecoded, type DecodedImage, type Region } from '../decode/decode.js';
import { LOCATE_TUNING } from './locate-tuning.js';

/**
 * A document photographed a quarter or half turn from upright, with no orientation tag to say so
 * (a card laid upside down on the desk, a phone held sideways by a browser that drops the tag):
 * the turns it is read again at, and the geometry between the turned picture and the one taken.
 */

/** Degrees clockwise. */
export type Turn = 0 | 90 | 180 | 270;

/** A face found surely and upright (or nearly: a document photographed up to 15 degrees askew). */
export function uprightAndSure(face: { roll: number; score: number } | null): boolean {
  return face !== null && face.score >= LOCATE_TUNING.documentTurn.sureFace && Math.abs(face.roll) <= LOCATE_TUNING.documentTurn.onItsSide;
}

/**
 * A turn to read a document at; `checkFirst`: only where a quick look at the whole picture turned
 * (the face models' detector and mesh, about 0.05-0.1 s) finds a face upright and sure.
 */
export interface TurnToTry {
  turn: Turn;
  checkFirst: boolean;
}

/**
 * The turns to read a document at, in order, from the portrait found on it as taken. Each full
 * reading costs about what the first did, and a photo that reads as nothing whichever way (a
 * screen's moiré) pays them all: at most one full reading more, and two quick looks.
 * - Lying on its side: the quarter turn that sets it upright.
 * - Upright and sure: a half turn (the page is the right way up, or upside down with a "face"
 *   found on it all the same: a beige disc behind one of 10 genuine fronts of a held-out split turned
 *   a half, which a quick look on the page turned back misses).
 * - None, or unsure: a half turn (no face upright is found on most pages upside down); then each
 *   quarter where a quick look finds a face upright (a portrait on its side is missed now and then:
 *   3 of 20 fronts of that split turned a quarter either way).
 */
export function turnsToTry(portrait: { roll: number; score: number } | null): TurnToTry[] {
  if (portrait && portrait.roll > LOCATE_TUNING.documentTurn.onItsSide) return [{ turn: 270, checkFirst: false }];
  if (portrait && portrait.roll < -LOCATE_TUNING.documentTurn.onItsSide) return [{ turn: 90, checkFirst: false }];
  if (uprightAndSure(portrait)) return [{ turn: 180, checkFirst: false }];
  return [
    { turn: 180, checkFirst: false },
    { turn: 90, checkFirst: true },
    { turn: 270, checkFirst: true },
  ];
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
