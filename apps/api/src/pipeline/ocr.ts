import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asDecoded, greyPage, greyPagePng, greyRegionPng, type DecodedImage, type GreyPage, type Region } from './decode.js';
import { createScheduler, createWorker, OEM, PSM, type Scheduler } from 'tesseract.js';

/** Where `scripts/prepare-models.mjs` put the traineddata files (from npm packages). */
export const TESSDATA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'models', 'tessdata');

/**
 * Local binarisation contrast (binarise.ts): 30% keeps the MRZ's bold OCR-B strokes and drops
 * background texture. Printed text is judged at 30% too; what binarising loses of its thin strokes
 * and diacritics (the bar of Ø) the plain grey reading, taken when the first is unsure, covers.
 */
const MRZ_CONTRAST = 0.3;
const TEXT_CONTRAST = 0.3;

export interface OcrOptions {
  /** Workers for free text (eng); default: one per core. */
  textWorkers?: number;
  /** Workers for machine-readable zones (OCR-B); default 1. */
  mrzWorkers?: number;
  langPath?: string;
}

/**
 * Tesseract workers started once per process and reused. `langPath` is always a local directory:
 * without it tesseract.js fetches models from a CDN (and, offline, crashes the process).
 */
/** A document side prepared once for free-text reading (see `OcrEngine.readText`). */
export function textPage(image: DecodedImage, opts: { blank?: Region; rotateDegrees?: number } = {}): Promise<GreyPage> {
  return greyPage(image, { width: TEXT_WIDTH, blank: opts.blank, rotateDegrees: opts.rotateDegrees });
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

/** Free text is read 1600 px wide, whatever the photo's size. */
const TEXT_WIDTH = 1600;

export class OcrEngine {
  private constructor(
    private readonly text: Scheduler,
    private readonly mrz: Scheduler,
  ) {}

  static async start(opts: OcrOptions = {}): Promise<OcrEngine> {
    const langPath = opts.langPath ?? TESSDATA_DIR;
    const options = { langPath, gzip: true, cacheMethod: 'none' };
    // Tesseract reads a line it is unsure of a second time, inverted (white on dark). No field or
    // zone on a document is printed that way, and that second reading is a fifth of the OCR time.
    const noInverse = { tessedit_do_invert: '0' };
    const text = createScheduler();
    const mrz = createScheduler();
    const textCount = opts.textWorkers ?? Math.max(1, os.availableParallelism());
    const starts: Promise<void>[] = [];
    for (let i = 0; i < textCount; i++) {
      starts.push(
        createWorker('eng', OEM.LSTM_ONLY, options).then(async (w) => {
          await w.setParameters(noInverse);
          text.addWorker(w);
        }),
      );
    }
    for (let i = 0; i < (opts.mrzWorkers ?? 1); i++) {
      starts.push(
        createWorker('ocrb', OEM.LSTM_ONLY, options).then(async (w) => {
          await w.setParameters({
            tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<',
            tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
            ...noInverse,
          });
          mrz.addWorker(w);
        }),
      );
    }
    try {
      await Promise.all(starts);
    } catch (err) {
      await Promise.allSettled([text.terminate(), mrz.terminate()]);
      throw err;
    }
    return new OcrEngine(text, mrz);
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
    const png = await greyPagePng(page, opts.binarise ? TEXT_CONTRAST : undefined);
    const { data } = await this.text.addJob('recognize', png, {}, { text: true, blocks: true });
    const unsureWords: string[] = [];
    for (const block of data.blocks ?? [])
      for (const paragraph of block.paragraphs)
        for (const line of paragraph.lines)
          for (const word of line.words) if (word.confidence < UNSURE_WORD_CONFIDENCE) unsureWords.push(word.text);
    return { text: data.text, confidence: data.confidence / 100, unsureWords };
  }

  /**
   * The machine-readable zone: the bottom part of the picture (from `where`), or a region of it
   * (on a side already levelled), scaled to 1200-2000 px wide and binarised against local
   * brightness (a shadow across the zone keeps its characters), read with the
   * OCR-B model restricted to the MRZ alphabet.
   */
  async readMrzRegion(image: Buffer | DecodedImage, where: number | Region = 0.6): Promise<string> {
    const img = await asDecoded(image);
    const region = typeof where === 'number' ? { left: 0, top: where, width: 1, height: 1 - where } : where;
    const png = await greyRegionPng(img, region, { maxWidth: 2000, minWidth: 1200, binarise: MRZ_CONTRAST });
    const { data } = await this.mrz.addJob('recognize', png);
    return data.text;
  }

  async stop(): Promise<void> {
    await Promise.allSettled([this.text.terminate(), this.mrz.terminate()]);
  }
}
