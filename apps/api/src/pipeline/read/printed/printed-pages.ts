import { cropDecoded, regionWithin, type GreyPage, type Region } from '../../decode/decode.js';
import { squareUp } from '../../locate/document-quad.js';
import { documentRegion } from '../../locate/find-document.js';
import { regionOf, type LocatedSide } from '../../locate/located-side.js';
import type { FaceResult } from '../faces/faces.js';
import { levelledTextPage, textPage, type OcrEngine, type TextReading } from '../ocr/ocr.js';
import { PRINTED_TUNING } from './printed-tuning.js';

/** The pages a side's printed text is read from: the side itself, the document squared up, its block of text alone. */
export type PageKind = 'side' | 'squared' | 'block';
/** How a page is read: its ink judged against its surroundings (`inked`), or its grey as it is. */
export type PageWay = 'inked' | 'grey';

/**
 * A side's printed pages, each prepared once and read at most once each way. The side's page is
 * levelled with the zone reader's turn and its portrait blanked (a photo's texture reads as junk
 * letters beside the fields), within the portrait's printed edges. The document squared up (found
 * by its four edges) and its block of text alone (more pixels per letter, none of the background's
 * junk words) are the same text seen better, for a side the first page read weakly.
 *
 * `readAhead`: where a verification runs alone on the machine, a page's grey reading starts with its
 * inked one, on the text engine's other worker (each is 0.2-0.5 s, and the second is often needed).
 */
export class PrintedPages {
  private readonly pages = new Map<PageKind, Promise<GreyPage | null>>();
  private readonly readings = new Map<string, Promise<TextReading | null>>();

  constructor(
    private readonly ocr: OcrEngine,
    private readonly side: LocatedSide,
    private readonly opts: { readAhead: boolean; timed: <T>(work: () => Promise<T>) => Promise<T> },
  ) {}

  /** The page read one way (null where that page cannot be made: no quad, no block found). */
  read(kind: PageKind, way: PageWay): Promise<TextReading | null> {
    const key = `${kind}/${way}`;
    let reading = this.readings.get(key);
    if (!reading) {
      reading = this.page(kind).then((p) => (p ? this.opts.timed(() => this.ocr.readPage(p, { binarise: way === 'inked' })) : null));
      this.readings.set(key, reading);
      // A reading started ahead may never be awaited: its failure is then no unhandled rejection.
      reading.catch(() => {});
      if (this.opts.readAhead && way === 'inked') void this.read(kind, 'grey');
    }
    return reading;
  }

  /** Starts the side's first page (its zone being still looked for): its readings wait for whoever asks. */
  prefetch(): void {
    void this.read('side', 'inked');
  }

  private page(kind: PageKind): Promise<GreyPage | null> {
    let page = this.pages.get(kind);
    if (!page) {
      page = this.opts.timed(() => this.prepare(kind));
      this.pages.set(kind, page);
    }
    return page;
  }

  private async prepare(kind: PageKind): Promise<GreyPage | null> {
    const portrait = await this.side.portrait;
    const face = portrait ? regionOf(portrait.box) : undefined;
    const around = face ? portraitBlank(face) : undefined;
    const painted = paintsPortrait(portrait);
    const blank = painted ? around : undefined;
    if (kind === 'side') return levelledTextPage(await this.side.levelled(), { blank, face, turnedBy: await this.side.skew() });
    if (!face || !around) return null;
    if (kind === 'squared') {
      const squared = await squareUp(this.side.image, face);
      if (!squared) return null;
      const squaredFace = squared.region(face);
      return levelledTextPage(squared.image, { blank: painted ? portraitBlank(squaredFace) : undefined, face: squaredFace, turnedBy: 0 });
    }
    const block = await documentRegion(this.side.image, around);
    if (!block) return null;
    return textPage(cropDecoded(this.side.image, block), {
      blank: blank && regionWithin(blank, block),
      rotateDegrees: await this.side.skew(),
    });
  }
}

/** The printed portrait around a detected face: the face plus hair, neck and frame. */
export function portraitBlank({ left: x, top: y, width: w, height: h }: Region): Region {
  const left = Math.max(0, x - 0.42 * w);
  const top = Math.max(0, y - 0.59 * h);
  return { left, top, width: Math.min(1 - left, 1.85 * w), height: Math.min(1 - top, 2.35 * h) };
}

/**
 * Whether a page paints its portrait out: only a face the detector is sure of. An unsure one is as
 * often something else printed (a ghost portrait, a drawing, letters), and its blank took the
 * fields' letters with it.
 */
export function paintsPortrait(portrait: Pick<FaceResult, 'score'> | null): boolean {
  return portrait !== null && portrait.score >= PRINTED_TUNING.blankFaceScore;
}
