import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { createScheduler, createWorker, OEM, PSM, type Scheduler } from 'tesseract.js';

/** Where `scripts/prepare-models.mjs` put the traineddata files (from npm packages). */
export const TESSDATA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'models', 'tessdata');

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
    const text = createScheduler();
    const mrz = createScheduler();
    const textCount = opts.textWorkers ?? Math.max(1, os.availableParallelism());
    const starts: Promise<void>[] = [];
    for (let i = 0; i < textCount; i++) {
      starts.push(createWorker('eng', OEM.LSTM_ONLY, options).then((w) => void text.addWorker(w)));
    }
    for (let i = 0; i < (opts.mrzWorkers ?? 1); i++) {
      starts.push(
        createWorker('ocrb', OEM.LSTM_ONLY, options).then(async (w) => {
          await w.setParameters({ tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<', tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
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

  /** Free text of a document side (grey, at most 1600 px wide: enough for ID text, bounded memory). */
  async readText(image: Buffer): Promise<{ text: string; confidence: number }> {
    const png = await sharp(image).rotate().resize({ width: 1600, withoutEnlargement: true }).greyscale().png().toBuffer();
    const { data } = await this.text.addJob('recognize', png);
    return { text: data.text, confidence: data.confidence / 100 };
  }

  /**
   * The machine-readable zone: the bottom part of the document, upscaled and binarised, read with
   * the OCR-B model restricted to the MRZ alphabet.
   */
  async readMrzRegion(image: Buffer, fromTop = 0.6): Promise<string> {
    const base = sharp(image).rotate();
    const meta = await base.metadata();
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    if (!width || !height) return '';
    const top = Math.floor(height * fromTop);
    const png = await sharp(image)
      .rotate()
      .extract({ left: 0, top, width, height: height - top })
      .resize({ width: Math.min(2000, Math.max(1200, width)) })
      .greyscale()
      .normalise()
      .threshold(140)
      .png()
      .toBuffer();
    const { data } = await this.mrz.addJob('recognize', png);
    return data.text;
  }

  async stop(): Promise<void> {
    await Promise.allSettled([this.text.terminate(), this.mrz.terminate()]);
  }
}
