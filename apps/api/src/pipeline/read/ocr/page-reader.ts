import type { GreyPage } from '../../decode/decode.js';

/** What Tesseract read on one page, whichever build read it. */
export interface PageReading {
  text: string;
  /** Mean word confidence, 0-100 (Tesseract's `MeanTextConf`). */
  confidence: number;
  /** Each word as read with its own confidence, 0-100. */
  words: { text: string; confidence: number }[];
}

/**
 * A Tesseract model loaded with its settings, reading grey pages (72 dpi). Two builds sit behind
 * it: native Tesseract (native-ocr.ts) and tesseract.js (wasm-ocr.ts); ocr.ts chooses.
 */
export interface PageReader {
  read(page: GreyPage): Promise<PageReading>;
  stop(): Promise<void>;
  /** The processes reading, where they are processes of their own (native): their CPU is the OCR's. */
  pids(): number[];
}
