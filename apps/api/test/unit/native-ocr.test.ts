import { execFileSync, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { NativePageReader, nativeOcrAvailable, parseReading } from '../../src/pipeline/read/ocr/native-ocr.js';
import { NATIVE_TESSDATA_DIR, OcrEngine, chosenOcrEngine } from '../../src/pipeline/read/ocr/ocr.js';
import type { GreyPage } from '../../src/pipeline/decode/decode.js';
import { onlyIf } from '../helpers/only-if.js';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A grey page with one line of large black text. */
async function textLine(text: string): Promise<GreyPage> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="160"><rect width="100%" height="100%" fill="#fff"/><text x="30" y="100" font-family="DejaVu Sans" font-size="56">${text}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}

describe('parseReading: the native engine reply', () => {
  it('reads the confidence, each word with its own, and the text after them', () => {
    const r = parseReading('87\n3\n91.5000\tSURNAME\n42.2500\tØDEGÅRD\n96.0000\t<<\nSURNAME ØDEGÅRD\n<<\n');
    expect(r).toEqual({
      confidence: 87,
      words: [
        { confidence: 91.5, text: 'SURNAME' },
        { confidence: 42.25, text: 'ØDEGÅRD' },
        { confidence: 96, text: '<<' },
      ],
      text: 'SURNAME ØDEGÅRD\n<<\n',
    });
  });

  it('an empty page has no words and no text', () => {
    expect(parseReading('0\n0\n')).toEqual({ confidence: 0, words: [], text: '' });
  });

  it('refuses a reply that is not one', () => {
    expect(() => parseReading('garbage')).toThrow(/unreadable reply/);
  });
});

describe('chosenOcrEngine: OCR_ENGINE', () => {
  it('takes wasm and native as asked, auto as what was built, and refuses anything else', () => {
    expect(chosenOcrEngine('wasm')).toBe('wasm');
    expect(chosenOcrEngine('native')).toBe('native');
    expect(chosenOcrEngine('auto')).toBe(nativeOcrAvailable() ? 'native' : 'wasm');
    expect(() => chosenOcrEngine('gpu')).toThrow(/auto, native or wasm/);
  });

  it('a native engine that does not exist fails to start; auto would then read with tesseract.js', async () => {
    await expect(
      NativePageReader.start(1, { binary: '/nonexistent/ocr-engine', tessdataDir: NATIVE_TESSDATA_DIR, language: 'eng' }),
    ).rejects.toThrow();
  });
});

const GRID_WORDS = ['MARCH', 'APRIL', 'RIVER', 'STONE', 'GREEN', 'NORTH', 'SOUTH', 'WATER', 'LIGHT', 'PAPER'];

/** A grey page of `rows` lines of ten words each (a page of many words, as texture reads). */
async function wordGrid(rows: number): Promise<GreyPage> {
  const line = GRID_WORDS.join(' ');
  const lines = Array.from(
    { length: rows },
    (_, r) => `<text x="20" y="${40 + r * 44}" font-family="DejaVu Sans" font-size="28">${line}</text>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="${60 + rows * 44}"><rect width="100%" height="100%" fill="#fff"/>${lines}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}

// Built wherever the build could (Debian as root); in CI it must have been.
describe(
  'the native engine processes',
  onlyIf(nativeOcrAvailable() || process.env.CI === 'true', 'the native OCR engine was not built here (CI requires it)'),
  () => {
    let reader: NativePageReader;
    beforeAll(async () => {
      reader = await NativePageReader.start(2, {
        tessdataDir: NATIVE_TESSDATA_DIR,
        language: 'eng',
        settings: { tessedit_do_invert: '0' },
      });
    }, 30_000);
    afterAll(() => reader?.stop());

    const enginePids = () =>
      execFileSync('pgrep', ['-P', String(process.pid), '-f', 'ocr-engine'], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .filter(Boolean)
        .map(Number);

    it('read pages in parallel, each reply to its own page', async () => {
      const words = ['HADDAD', 'MARCHAND', 'WOJCIK', 'LOVELACE'];
      const pages = await Promise.all(words.map(textLine));
      const readings = await Promise.all(pages.map((p) => reader.read(p)));
      expect(readings.map((r) => r.text.trim())).toEqual(words);
      readings.forEach((r, i) => {
        expect(r.confidence).toBeGreaterThan(50);
        expect(r.words.map((w) => w.text)).toEqual([words[i]]);
      });
    });

    it('an engine killed mid-page fails that page only; the next pages are read by its replacement', async () => {
      const page = await textLine('MARCHAND');
      const before = enginePids();
      expect(before).toHaveLength(2);
      const inFlight = [reader.read(page), reader.read(page)];
      for (const pid of before) process.kill(pid, 'SIGKILL');
      const settled = await Promise.allSettled(inFlight);
      expect(settled.every((s) => s.status === 'rejected')).toBe(true);
      expect(String((settled[0] as PromiseRejectedResult).reason)).toMatch(/ocr-engine exited \(SIGKILL\)/);
      // Replaced: the pages after are read, by new processes.
      await expect.poll(() => enginePids().filter((p) => !before.includes(p)).length, { timeout: 15_000 }).toBe(2);
      const again = await Promise.all([reader.read(page), reader.read(page)]);
      expect(again.map((r) => r.text.trim())).toEqual(['MARCHAND', 'MARCHAND']);
    }, 30_000);

    it('an engine killed while idle is replaced before the next page, which it does not fail', async () => {
      const r = await NativePageReader.start(1, { tessdataDir: NATIVE_TESSDATA_DIR, language: 'eng' });
      try {
        const [pid] = r.pids();
        process.kill(pid!, 'SIGKILL');
        await expect.poll(() => r.pids()[0] !== pid || !isAlive(pid!), { timeout: 5_000 }).toBe(true);
        await new Promise((res) => setTimeout(res, 200)); // its exit is seen
        expect((await r.read(await textLine('HADDAD'))).text.trim()).toBe('HADDAD');
        expect(r.pids()[0]).not.toBe(pid);
      } finally {
        await r.stop();
      }
    }, 30_000);

    it('stopped, the engines exit and further reads are refused', async () => {
      const r = await NativePageReader.start(1, { tessdataDir: NATIVE_TESSDATA_DIR, language: 'eng' });
      const before = enginePids();
      await r.stop();
      await expect.poll(() => enginePids().length, { timeout: 10_000 }).toBe(before.length - 1);
      await expect(r.read(await textLine('X'))).rejects.toThrow(/stopped/);
    });

    it('an engine dies with the process that started it, mid-page, when that process is killed (a pipeline child over its budget)', async () => {
      // The compiled module (the build runs before the tests): a plain node child, as a pipeline child is.
      const reader = new URL('../../dist/pipeline/read/ocr/native-ocr.js', import.meta.url).href;
      // It starts an engine and hands it a page of noise, which takes Tesseract over half a minute.
      const script = `
      const m = await import(${JSON.stringify(reader)});
      const r = await m.NativePageReader.start(1, { tessdataDir: ${JSON.stringify(NATIVE_TESSDATA_DIR)}, language: 'eng' });
      const w = 2000, h = 3000, px = Buffer.alloc(w * h);
      let seed = 1;
      for (let i = 0; i < px.length; i++) { seed = (seed * 1103515245 + 12345) >>> 0; px[i] = (seed >>> 16) & 1 ? 0 : 255; }
      r.read({ pixels: px, width: w, height: h }).catch(() => {});
      setTimeout(() => console.log('reading'), 500);
      setInterval(() => {}, 1000);`;
      const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => parent.stdout.on('data', (d: Buffer) => d.toString().includes('reading') && resolve()));
      const engines = execFileSync('pgrep', ['-P', String(parent.pid), '-f', 'ocr-engine'], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map(Number);
      expect(engines).toHaveLength(1);
      parent.kill('SIGKILL');
      // Gone at once, not after its page (which an orphan would finish, its CPU counted by no budget).
      await expect.poll(() => engines.filter(isAlive).length, { timeout: 3_000 }).toBe(0);
    }, 30_000);

    it('OcrEngine reports which build reads', async () => {
      const e = await OcrEngine.start({ textWorkers: 1, engine: 'native' });
      try {
        expect(e.kind).toBe('native');
      } finally {
        await e.stop();
      }
    });
  },
);

describe(
  'a page of more words than the engine recognises (maxWords)',
  onlyIf(nativeOcrAvailable() || process.env.CI === 'true', 'the native OCR engine was not built here (CI requires it)'),
  () => {
    let reader: NativePageReader;
    beforeAll(async () => {
      reader = await NativePageReader.start(1, {
        tessdataDir: NATIVE_TESSDATA_DIR,
        language: 'eng',
        settings: { tessedit_do_invert: '0' },
        maxWords: 40,
      });
    }, 30_000);
    afterAll(() => reader?.stop());

    it('reads as nothing (not recognised), and a page under the line is read as ever', async () => {
      const many = await reader.read(await wordGrid(6));
      expect(many).toEqual({ confidence: 0, words: [], text: '' });
      const few = await reader.read(await wordGrid(3));
      expect(few.words.length).toBe(30);
      expect(few.text).toContain('RIVER STONE');
      // The same page read by an engine without the line: the same reading (the layout found first is the one recognised).
      const plain = await NativePageReader.start(1, {
        tessdataDir: NATIVE_TESSDATA_DIR,
        language: 'eng',
        settings: { tessedit_do_invert: '0' },
      });
      try {
        expect(await plain.read(await wordGrid(3))).toEqual(few);
      } finally {
        await plain.stop();
      }
    });
  },
);
