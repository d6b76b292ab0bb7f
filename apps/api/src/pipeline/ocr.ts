import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asDecoded, greyRegionPng, type DecodedImage, type Region } from './decode.js';
import { createScheduler, createWorker, OEM, PSM, type Scheduler } from 'tesseract.js';

/** Where `scripts/prepare-models.mjs` put the traineddata files (from npm packages). */
export const TESSDATA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'models', 'tessdata');

/**
 * Local binarisation contrast (binarise.ts): the MRZ's OCR-B strokes are bold, so 30% keeps them
 * and drops background texture; printed text has thin strokes and diacritics (the bar of Ø), so it
 * is judged at 22%.
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
   * Free text of a document side (or a region of it): grey, at most 1600 px wide, enough for ID
   * text, and a bounded image for the recogniser whatever was uploaded. `blank` is painted white
   * first (the portrait), `rotateDegrees` levels the lines, `binarise` judges ink against its
   * surroundings (shadows, a dim room, a tinted background).
   */
  async readText(
    image: Buffer | DecodedImage,
    opts: { region?: Region; blank?: Region; rotateDegrees?: number; binarise?: boolean } = {},
  ): Promise<{ text: string; confidence: number }> {
    const png = await greyRegionPng(await asDecoded(image), opts.region, {
      maxWidth: 1600,
      minWidth: 1600,
      blank: opts.blank,
      rotateDegrees: opts.rotateDegrees,
      binarise: opts.binarise ? TEXT_CONTRAST : undefined,
    });
    const { data } = await this.text.addJob('recognize', png);
    return { text: data.text, confidence: data.confidence / 100 };
  }

  /**
   * The machine-readable zone: the bottom part of the document (from `fromTop`), or a region,
   * straightened by `rotateDegrees`, scaled to 1200-2000 px wide and binarised against local
   * brightness (a shadow across the zone keeps its characters), read with the
   * OCR-B model restricted to the MRZ alphabet.
   */
  async readMrzRegion(image: Buffer | DecodedImage, where: number | Region = 0.6, rotateDegrees = 0): Promise<string> {
    const img = await asDecoded(image);
    const region = typeof where === 'number' ? { left: 0, top: where, width: 1, height: 1 - where } : where;
    const png = await greyRegionPng(img, region, { maxWidth: 2000, minWidth: 1200, binarise: MRZ_CONTRAST, rotateDegrees });
    const { data } = await this.mrz.addJob('recognize', png);
    return data.text;
  }

  async stop(): Promise<void> {
    await Promise.allSettled([this.text.terminate(), this.mrz.terminate()]);
  }
}
