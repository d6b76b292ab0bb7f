import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { GreyPage } from '../../decode/decode.js';
import type { PageReader, PageReading } from './page-reader.js';
import { API_ROOT } from '../../../paths.js';

/**
 * Where `scripts/build-ocr-engine.mjs` puts the native reader (native/ocr-engine.cpp, built against
 * Debian's libtesseract). Absent when it could not be built; the pipeline then reads with tesseract.js.
 */
export const NATIVE_OCR_ENGINE = path.join(API_ROOT, 'native', 'bin', 'ocr-engine');

export function nativeOcrAvailable(binary = NATIVE_OCR_ENGINE): boolean {
  try {
    fs.accessSync(binary, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface NativeReaderOptions {
  binary?: string;
  tessdataDir: string;
  language: string;
  /** Tesseract settings, as `SetVariable` takes them. */
  settings?: Record<string, string>;
  /** A page whose layout holds more words is not recognised and reads as nothing (`ocr-engine.cpp`). */
  maxWords?: number;
}

interface Pending {
  resolve: (r: PageReading) => void;
  reject: (e: Error) => void;
}

/**
 * One `ocr-engine` process: the model loaded once, pages written to its stdin and readings read
 * back in order. A process that dies rejects what it had and is not used again (the pool starts
 * another).
 */
class NativeReaderProcess {
  private readonly pending: Pending[] = [];
  private buffered: Buffer = Buffer.alloc(0);
  private stderr = '';
  dead: Error | null = null;
  /** Until the engine has said "ready" (its model loaded). */
  private readyWaiter: { resolve: () => void; reject: (e: Error) => void } | null = null;

  private constructor(private readonly proc: ChildProcessWithoutNullStreams) {
    proc.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    proc.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-500);
    });
    proc.stdin.on('error', () => {}); // a write after it died: reported through 'exit'
    proc.on('error', (err) => this.fail(err));
    proc.on('exit', (code, signal) => this.fail(new Error(`ocr-engine exited (${signal ?? code}): ${this.stderr.trim() || 'no message'}`)));
  }

  static start(opts: NativeReaderOptions): Promise<NativeReaderProcess> {
    const args = [
      opts.tessdataDir,
      opts.language,
      ...(opts.maxWords ? [`max_words=${opts.maxWords}`] : []),
      ...Object.entries(opts.settings ?? {}).map(([k, v]) => `${k}=${v}`),
    ];
    // One thread per reader: the pool is the parallelism, and OpenMP's threads only contend with it.
    const proc = spawn(opts.binary ?? NATIVE_OCR_ENGINE, args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: 'pipe' });
    const reader = new NativeReaderProcess(proc);
    return new Promise((resolve, reject) => {
      reader.readyWaiter = { resolve: () => resolve(reader), reject };
    });
  }

  read(page: GreyPage): Promise<PageReading> {
    if (this.dead) return Promise.reject(this.dead);
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      const header = Buffer.alloc(8);
      header.writeUInt32LE(page.width, 0);
      header.writeUInt32LE(page.height, 4);
      this.proc.stdin.write(header);
      this.proc.stdin.write(page.pixels);
    });
  }

  stop(): void {
    this.proc.stdin.end();
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    while (this.buffered.length >= 4) {
      const length = this.buffered.readUInt32LE(0);
      if (this.buffered.length < 4 + length) return;
      const payload = this.buffered.subarray(4, 4 + length).toString('utf8');
      this.buffered = this.buffered.subarray(4 + length);
      if (this.readyWaiter) {
        const waiter = this.readyWaiter;
        this.readyWaiter = null;
        if (payload === 'ready') waiter.resolve();
        else waiter.reject(new Error('ocr-engine did not start'));
        continue;
      }
      const next = this.pending.shift();
      if (!next) continue;
      try {
        next.resolve(parseReading(payload));
      } catch (err) {
        next.reject(err as Error); // never thrown out of a stream handler (it would end the process)
      }
    }
  }

  private fail(err: Error): void {
    if (this.dead) return;
    this.dead = err;
    this.readyWaiter?.reject(err);
    this.readyWaiter = null;
    for (const p of this.pending.splice(0)) p.reject(err);
  }
}

/** The helper's reply: mean confidence, word count, one `confidence<TAB>word` line per word, then the text. */
export function parseReading(payload: string): PageReading {
  let at = 0;
  const line = () => {
    const end = payload.indexOf('\n', at);
    const s = end < 0 ? payload.slice(at) : payload.slice(at, end);
    at = end < 0 ? payload.length : end + 1;
    return s;
  };
  const confidence = Number(line());
  const count = Number(line());
  const words: PageReading['words'] = [];
  for (let i = 0; i < count; i++) {
    const w = line();
    const tab = w.indexOf('\t');
    words.push({ confidence: Number(w.slice(0, tab)), text: w.slice(tab + 1) });
  }
  if (!Number.isFinite(confidence) || !Number.isInteger(count)) throw new Error('ocr-engine: unreadable reply');
  return { confidence, words, text: payload.slice(at) };
}

/**
 * Pages read by a few `ocr-engine` processes, each page by the first one free. A reader that died
 * (it was killed, or a page broke it) is replaced for the pages after; the page it held fails.
 */
export class NativePageReader implements PageReader {
  private readonly idle: NativeReaderProcess[] = [];
  private readonly waiting: { page: GreyPage; resolve: (r: PageReading) => void; reject: (e: Error) => void }[] = [];
  private stopped = false;
  /** Set when a dead reader could not be replaced: the engine no longer starts. */
  private broken: Error | null = null;

  private constructor(
    private readonly opts: NativeReaderOptions,
    private readonly all: NativeReaderProcess[],
  ) {
    this.idle.push(...all);
  }

  static async start(count: number, opts: NativeReaderOptions): Promise<NativePageReader> {
    const started = await Promise.allSettled(Array.from({ length: count }, () => NativeReaderProcess.start(opts)));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    const ok = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    if (failed) {
      for (const r of ok) r.stop();
      throw failed.reason;
    }
    return new NativePageReader(opts, ok);
  }

  read(page: GreyPage): Promise<PageReading> {
    if (this.stopped) return Promise.reject(new Error('OCR stopped'));
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.waiting.push({ page, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.idle.length && this.waiting.length) {
      const reader = this.idle.pop()!;
      if (reader.dead) {
        // It died while idle (killed from outside): replaced, and no page is spent finding out.
        void this.replace(reader);
        continue;
      }
      const job = this.waiting.shift()!;
      reader.read(job.page).then(
        (r) => {
          this.idle.push(reader);
          job.resolve(r);
          this.dispatch();
        },
        (err: Error) => {
          job.reject(err);
          void this.replace(reader);
        },
      );
    }
  }

  private async replace(dead: NativeReaderProcess): Promise<void> {
    const at = this.all.indexOf(dead);
    if (this.stopped) return;
    try {
      const fresh = await NativeReaderProcess.start(this.opts);
      if (this.stopped) return fresh.stop();
      this.all[at] = fresh;
      this.idle.push(fresh);
      this.dispatch();
    } catch (err) {
      // The engine no longer starts (its library removed under us): fail what waits and what comes.
      this.broken = err as Error;
      for (const job of this.waiting.splice(0)) job.reject(err as Error);
    }
  }

  pids(): number[] {
    return this.all.flatMap((r) => (r.pid === undefined ? [] : [r.pid]));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.waiting.splice(0)) job.reject(new Error('OCR stopped'));
    for (const r of this.all) r.stop();
  }
}
