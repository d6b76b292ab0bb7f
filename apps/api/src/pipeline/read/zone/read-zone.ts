import type { DecodedImage, Region } from '../../decode/decode.js';
import { squareUp } from '../../locate/document-quad.js';
import type { LocatedSide } from '../../locate/located-side.js';
import { findMrzBand } from '../../locate/skew.js';
import { ZONE_MIN_WIDTH, type OcrEngine } from '../ocr/ocr.js';
import { checksHeld, type ZoneReading } from './zone-fields.js';
import { showsZoneFillers, showsZoneLine, stackedReadings, zoneInText } from './zone-lines.js';
import { ZONE_REGIONS } from './zone-tuning.js';

/** A side's zone as read, and whether any reading showed a zone line at all (read or not). */
export interface ZoneLook {
  zone: ZoneReading | null;
  /** Some reading showed a line of a zone: the side has one, read or not. */
  seen: boolean;
}

/**
 * The machine-readable zone of one side, read with the OCR-B model on the levelled side: first the
 * bottom of the picture (a document that fills it), then the band found by its text lines (a
 * document smaller in the frame) and, where that band began above the bottom, the two readings
 * stacked; then, where a zone's run of fillers was seen, the band raised (a zone's last line over
 * the card's own edge) and the bottom of the picture as taken; last, where any zone line was seen,
 * the side found by its edges and squared up. Each look keeps the reading whose checks hold best;
 * the reader stops at the first that holds every check.
 */
export async function readZone(ocr: OcrEngine, side: LocatedSide, opts: { now: Date; missed?: () => void }): Promise<ZoneLook> {
  const level = await side.levelled();
  let best: ZoneReading | null = null;
  let seen = false;
  let fillers = false;
  const consider = (text: string) => {
    seen ||= showsZoneLine(text);
    fillers ||= showsZoneFillers(text);
    const z = zoneInText(text, opts.now);
    if (z && (!best || checksHeld(z) > checksHeld(best))) best = z;
    return z;
  };
  const complete = () => best !== null && isComplete(best);
  const read = (img: DecodedImage, where: number | Region) => ocr.readMrzRegion(img, where);
  const readGrey = () => ocr.readMrzRegion(level, ZONE_REGIONS.bottom, { binarise: false });

  const bottomText = await read(level, ZONE_REGIONS.bottom);
  consider(bottomText);
  if (complete()) return { zone: best, seen };
  // A small scan's zone is scaled up several times to be read: its thin strokes turn light grey,
  // and binarising against their surroundings erases them. Such a zone is read in its grey too.
  if (level.pixelWidth * ZONE_REGIONS.greyWhenScaledBy < ZONE_MIN_WIDTH) {
    consider(await readGrey());
    if (complete()) return { zone: best, seen };
  }
  opts.missed?.();
  const band = await findMrzBand(level);
  if (band && (seen || band.top < ZONE_REGIONS.bottom)) {
    const bandText = await read(level, band);
    consider(bandText);
    // A zone across the bottom's top edge, its band found a line too high: the band read its
    // first line(s), the bottom its last; read together, top to bottom, they are the zone.
    if (!complete() && band.top < ZONE_REGIONS.bottom) consider(stackedReadings(bandText, bottomText));
    if (!complete() && fillers) consider(await read(level, raised(band)));
  }
  if (!complete() && fillers && level !== side.image) consider(await read(side.image, ZONE_REGIONS.bottom));
  // A zone printed over a tint or a guilloche (visas, residence permits) binarises into specks with
  // its letters, its runs of fillers standing out: read in its grey, once the binarised looks missed.
  if (!complete() && fillers && level.pixelWidth * ZONE_REGIONS.greyWhenScaledBy >= ZONE_MIN_WIDTH) consider(await readGrey());
  if (complete() || !seen) return { zone: best, seen };
  // A zone seen and not read whole: the side under perspective (its lines converge, one levelling
  // does not level them all) is found by its four edges, seen square on, and its lower half read.
  const squared = await squareUp(side.image, await side.portraitRegion());
  if (squared) consider(await read(squared.image, ZONE_REGIONS.squared));
  return { zone: best, seen };
}

/** Every field the zone carries read with its own check digit holding. */
export function isComplete(z: ZoneReading): boolean {
  return z.checks.documentNumber && z.checks.dateOfBirth && z.checks.expiryDate !== false;
}

/** A region grown upwards by half its height (within the image). */
function raised(r: Region): Region {
  const top = Math.max(0, r.top - r.height / 2);
  return { ...r, top, height: r.height + (r.top - top) };
}
