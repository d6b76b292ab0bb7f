import { createScheduler, createWorker, OEM, type Scheduler } from 'tesseract.js';
import { greyPagePng, type GreyPage } from '../../decode/decode.js';
import type { PageReader, PageReading } from './page-reader.js';

/**
 * Pages read by tesseract.js workers (Tesseract compiled to WebAssembly, in worker threads): the
 * engine wherever the native one could not be built. `tessdataDir` is always a local directory:
 * without it tesseract.js fetches models from a CDN (and, offline, crashes the process).
 */
export class WasmPageReader implements PageReader {
  private constructor(private readonly scheduler: Scheduler) {}

  static async start(
    count: number,
    opts: { tessdataDir: string; language: string; settings?: Record<string, string> },
  ): Promise<WasmPageReader> {
    const scheduler = createScheduler();
    const options = { langPath: opts.tessdataDir, gzip: true, cacheMethod: 'none' };
    const starts = Array.from({ length: count }, () =>
      createWorker(opts.language, OEM.LSTM_ONLY, options).then(async (w) => {
        if (opts.settings) await w.setParameters(opts.settings);
        scheduler.addWorker(w);
      }),
    );
    try {
      await Promise.all(starts);
    } catch (err) {
      await scheduler.terminate().catch(() => {});
      throw err;
    }
    return new WasmPageReader(scheduler);
  }

  async read(page: GreyPage): Promise<PageReading> {
    const { data } = await this.scheduler.addJob('recognize', await greyPagePng(page), {}, { text: true, blocks: true });
    const words: PageReading['words'] = [];
    for (const block of data.blocks ?? [])
      for (const paragraph of block.paragraphs)
        for (const line of paragraph.lines) for (const word of line.words) words.push({ text: word.text, confidence: word.confidence });
    return { text: data.text, confidence: data.confidence, words };
  }

  pids(): number[] {
    return []; // worker threads of this process
  }

  async stop(): Promise<void> {
    await this.scheduler.terminate();
  }
}
