import os from 'node:os';
import path from 'node:path';
import { PSM } from 'tesseract.js';
import {
  asDecoded,
  binarisedPage,
  greyPage,
  greyRegion,
  levelledGreyPage,
  type DecodedImage,
  type GreyPage,
  type Region,
} from '../../decode/decode.js';
import { NativePageReader, nativeOcrAvailable } from './native-ocr.js';
import type { PageReader } from './page-reader.js';
import { WasmPageReader } from './wasm-ocr.js';
import { API_ROOT } from '../../../paths.js';

/** Where `scripts/prepare-models.mjs` put the traineddata files (from npm packages). */
export const TESSDATA_DIR = path.join(API_ROOT, 'models', 'tessdata');
/** The same models uncompressed, as native Tesseract reads them (written by the same script). */
export const NATIVE_TESSDATA_DIR = path.join(TESSDATA_DIR, 'plain');

/**
 * Local binarisation contrast (binarise.ts): 30% keeps the MRZ's bold OCR-B strokes and drops
 * background texture. Printed text is judged at 30% too; what binarising loses of its thin strokes
 * and diacritics (the bar of Ø) the plain grey reading, taken when the first is unsure, covers.
 */
const MRZ_CONTRAST = 0.3;
const TEXT_CONTRAST = 0.3;

/** Which Tesseract build reads: `native` (Debian's libtesseract), `wasm` (tesseract.js), `auto` (native when built). */
export type OcrEngineKind = 'auto' | 'native' | 'wasm';

export interface OcrOptions {
  /** Readers for free text (eng); default: one per core. */
  textWorkers?: number;
  /** Readers for machine-readable zones (OCR-B); default 1. */
  mrzWorkers?: number;
  langPath?: string;
  /** Default: `OCR_ENGINE` from the environment, else `auto`. */
  engine?: OcrEngineKind;
}

/** The engine `auto` and the environment choose. */
export function chosenOcrEngine(requested: string | undefined = process.env.OCR_ENGINE): 'native' | 'wasm' {
  const kind = requested ?? 'auto';
  if (kind === 'wasm') return 'wasm';
  if (kind === 'native') return 'native';
  if (kind !== 'auto') throw new Error(`OCR_ENGINE must be auto, native or wasm (got ${kind})`);
  return nativeOcrAvailable() ? 'native' : 'wasm';
}

/** A document side prepared once for free-text reading (see `OcrEngine.readText`). */
export function textPage(image: DecodedImage, opts: { blank?: Region; rotateDegrees?: number } = {}): Promise<GreyPage> {
  return greyPage(image, { width: TEXT_WIDTH, blank: opts.blank, rotateDegrees: opts.rotateDegrees });
}

/**
 * A side already levelled by `turnedBy` degrees, prepared as `textPage` prepares it turned (`blank`
 * and the `face` it was drawn around given on the side as taken: the blank stays within the portrait).
 */
export function levelledTextPage(levelled: DecodedImage, opts: { blank?: Region; face?: Region; turnedBy: number }): Promise<GreyPage> {
  return levelledGreyPage(levelled, { width: TEXT_WIDTH, ...opts });
}

/** What the recogniser read on a page. */
export interface TextReading {
  text: string;
  /** Its mean word confidence, 0-1. */
  confidence: number;
  /** The words, as read, whose own confidence is under UNSURE_WORD_CONFIDENCE. */
  unsureWords: string[];
}

/**
 * A word the recogniser gives under 80% is one it was unsure of. Its letters' own confidences say
 * nothing (the LSTM model gives 90-99% to every letter, misread or not), its words' do: on four dev
 * cards read word by word, names read right scored 91-96% (but an accented one read without its
 * accents 25-57%: unsure does not mean wrong), the four names read one letter off 26-79% (EILcEN,
 * LAGNY for DAGNY, WOICIK, Saren for SØREN). The line is a dev choice; only given names use it.
 */
export const UNSURE_WORD_CONFIDENCE = 80;

/** A zone is read at least this wide: a small scan's is scaled up to it. */
export const ZONE_MIN_WIDTH = 1200;

/** Free text is read 1600 px wide, whatever the photo's size. */
const TEXT_WIDTH = 1600;

/**
 * A text page whose layout holds more words than this is texture, not a document: a fabric
 * binarised into specks, a screen's moire. Tesseract recognises about 14 ms a word here, and such
 * a page of 300-1,100 "words" took 2.5-5.9 s to read junk at confidence 0.2-0.4, where a document's
 * pages held at most 139 (401 pages of retired heldout-b499). Such a page reads as nothing; the
 * side's other reading (grey or binarised) reads it. Native engine only: tesseract.js finds no
 * layout apart.
 */
export const MAX_PAGE_WORDS = 200;

/**
 * Tesseract readers started once per process and reused: the eng model for free text, the OCR-B
 * model restricted to the MRZ alphabet for zones. Native Tesseract reads a page in about a third
 * of tesseract.js's time (docs/pipeline.md); both read the same models with the same settings.
 */
export class OcrEngine {
  private constructor(
    private readonly text: PageReader,
    private readonly mrz: PageReader,
    /** The build that reads (for the benchmark and the logs). */
    readonly kind: 'native' | 'wasm',
  ) {}

  static async start(opts: OcrOptions = {}): Promise<OcrEngine> {
    const requested = opts.engine ?? process.env.OCR_ENGINE ?? 'auto';
    const kind = chosenOcrEngine(requested);
    if (kind === 'native' && requested === 'auto') {
      // Built but not starting (its library removed since): read with tesseract.js rather than not at all.
      return OcrEngine.startWith('native', opts).catch(() => OcrEngine.startWith('wasm', opts));
    }
    return OcrEngine.startWith(kind, opts);
  }

  private static async startWith(kind: 'native' | 'wasm', opts: OcrOptions): Promise<OcrEngine> {
    const tessdataDir = opts.langPath ?? (kind === 'native' ? NATIVE_TESSDATA_DIR : TESSDATA_DIR);
    // Tesseract reads a line it is unsure of a second time, inverted (white on dark). No field or
    // zone on a document is printed that way, and that second reading is a fifth of the OCR time.
    const noInverse = { tessedit_do_invert: '0' };
    const mrzSettings = {
      tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<',
      tessedit_pageseg_mode: String(PSM.SINGLE_BLOCK),
      ...noInverse,
    };
    const start = (count: number, language: string, settings: Record<string, string>, maxWords?: number): Promise<PageReader> =>
      kind === 'native'
        ? NativePageReader.start(count, { tessdataDir, language, settings, maxWords })
        : WasmPageReader.start(count, { tessdataDir, language, settings });
    const [text, mrz] = await Promise.allSettled([
      start(opts.textWorkers ?? Math.max(1, os.availableParallelism()), 'eng', noInverse, MAX_PAGE_WORDS),
      start(opts.mrzWorkers ?? 1, 'ocrb', mrzSettings),
    ]);
    if (text.status === 'rejected' || mrz.status === 'rejected') {
      await Promise.allSettled([text, mrz].flatMap((r) => (r.status === 'fulfilled' ? [r.value.stop()] : [])));
      throw text.status === 'rejected' ? text.reason : (mrz as PromiseRejectedResult).reason;
    }
    return new OcrEngine(text.value, mrz.value, kind);
  }

  /**
   * Free text of a document side: grey, 1600 px wide (enough for ID text, and a bounded image for
   * the recogniser whatever was uploaded). `blank` is painted white first (the portrait),
   * `rotateDegrees` levels the lines, `binarise` judges ink against its surroundings (shadows, a
   * dim room, a tinted background). To read one side both ways, prepare it once (`textPage`) and
   * read it with `readPage`.
   */
  async readText(
    image: Buffer | DecodedImage,
    opts: { blank?: Region; rotateDegrees?: number; binarise?: boolean } = {},
  ): Promise<TextReading> {
    return this.readPage(await textPage(await asDecoded(image), opts), { binarise: opts.binarise });
  }

  /** A page prepared by `textPage`, read as it is or binarised. */
  async readPage(page: GreyPage, opts: { binarise?: boolean } = {}): Promise<TextReading> {
    const reading = await this.text.read(binarisedPage(page, opts.binarise ? TEXT_CONTRAST : undefined));
    const unsureWords = reading.words.filter((w) => w.confidence < UNSURE_WORD_CONFIDENCE).map((w) => w.text);
    return { text: reading.text, confidence: reading.confidence / 100, unsureWords };
  }

  /**
   * The machine-readable zone: the bottom part of the picture (from `where`), or a region of it
   * (on a side already levelled), scaled to 1200-2000 px wide and binarised against local
   * brightness (a shadow across the zone keeps its characters), read with the
   * OCR-B model restricted to the MRZ alphabet.
   */
  async readMrzRegion(image: Buffer | DecodedImage, where: number | Region = 0.6, opts: { binarise?: boolean } = {}): Promise<string> {
    const img = await asDecoded(image);
    const region = typeof where === 'number' ? { left: 0, top: where, width: 1, height: 1 - where } : where;
    const page = await greyRegion(img, region, { maxWidth: 2000, minWidth: ZONE_MIN_WIDTH });
    return (await this.mrz.read(opts.binarise === false ? page : binarisedPage(page, MRZ_CONTRAST))).text;
  }

  /** The native engines' processes (none with tesseract.js): the benchmark counts their CPU. */
  enginePids(): number[] {
    return [...this.text.pids(), ...this.mrz.pids()];
  }

  async stop(): Promise<void> {
    await Promise.allSettled([this.text.stop(), this.mrz.stop()]);
  }
}
