import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { composeTd1 } from '@service/fixtures/mrz-compose';
import { decodeImage } from '../../src/pipeline/decode/decode.js';
import { LocatedSide } from '../../src/pipeline/locate/located-side.js';
import type { OcrEngine, TextReading } from '../../src/pipeline/read/ocr/ocr.js';
import { readDocument } from '../../src/pipeline/strategy/read-document.js';
import { readZone } from '../../src/pipeline/read/zone/read-zone.js';

const NOW = new Date('2026-11-21T12:00:00Z');
const person = {
  issuingState: 'HRV',
  surname: 'HORVAT',
  givenNames: 'IVANA',
  documentNumber: '112233445',
  nationality: 'HRV',
  birthDate: '850317',
  sex: 'F' as const,
  expiryDate: '300921',
};

/** An engine whose zone reader reads `zone` and whose page reader reads `page` (the pixels are not read). */
function engine(zone: string, page: string): OcrEngine {
  const reading: TextReading = { text: page, confidence: 0.8, unsureWords: [] };
  return { readMrzRegion: async () => zone, readPage: async () => reading } as unknown as OcrEngine;
}

async function side(width = 640): Promise<LocatedSide> {
  const png = await sharp({ create: { width, height: Math.round(width * 0.63), channels: 3, background: '#f4f1ea' } })
    .png()
    .toBuffer();
  const image = await decodeImage(png);
  return new LocatedSide('front', image, 0, image, Promise.resolve(null));
}

const read = async (ocr: OcrEngine) =>
  readDocument({
    ocr,
    front: await side(),
    back: null,
    documentType: 'national_id',
    country: null,
    now: NOW,
    readAhead: false,
    photoUsable: Promise.resolve(true),
    timed: { zone: (w) => w(), ocr: (w) => w() },
  });

describe('the reading strategy', () => {
  // The older French card at 490 px: its zone reader read nothing, its printed page showed the zone.
  it("reads a zone from a page's text when the zone reader missed it", async () => {
    const lines = composeTd1(person);
    const page = ['REPUBLIKA HRVATSKA', 'OSOBNA ISKAZNICA', 'HORVAT', 'IVANA', ...lines].join('\n');
    const { evidence } = await read(engine('', page));
    expect(evidence.fields.documentNumber).toMatchObject({ value: '112233445', checked: true });
    expect(evidence.fields.dateOfBirth).toMatchObject({ value: '1985-03-17', checked: true });
    expect(evidence.fields.expiryDate).toMatchObject({ value: '2030-09-21', checked: true });
  });

  it('takes no zone from a page whose zone-like lines hold no check digits', async () => {
    const [l1, l2, l3] = composeTd1(person);
    // Every digit of the second line read one off: its dates' and composite's checks all fail.
    const misread = l2!.replace(/\d/g, (d) => String((Number(d) + 1) % 10));
    const page = ['REPUBLIKA HRVATSKA', l1, misread, l3].join('\n');
    const { evidence } = await read(engine('', page));
    expect(evidence.zone).toBeNull();
    expect(evidence.fields.dateOfBirth.checked).toBe(false);
  });
});

describe('the zone reader', () => {
  // The German visa (599 px): its zone printed over a tint binarised into specks among its fillers.
  it('reads in its grey, whatever the size, a zone whose binarised readings showed only runs of fillers', async () => {
    const lines = composeTd1(person);
    const specks = 'VGJ<4<<<44E4Y<4V<2<24L55A859<M2<<<<<<<5<5<<<5<<5<<<<';
    const ocr = {
      readMrzRegion: async (_img: unknown, _where: unknown, opts: { binarise?: boolean } = {}) =>
        opts.binarise === false ? lines.join('\n') : specks,
    } as unknown as OcrEngine;
    const look = await readZone(ocr, await side(1000), { now: NOW });
    expect(look.seen).toBe(true);
    expect(look.zone?.checks).toMatchObject({ documentNumber: true, dateOfBirth: true, expiryDate: true });
    // Nothing like a zone where binarised, on a side large enough to read so: no grey reading.
    const asked: boolean[] = [];
    const blank = {
      readMrzRegion: async (_img: unknown, _where: unknown, opts: { binarise?: boolean } = {}) => {
        asked.push(opts.binarise !== false);
        return 'REPUBLIKA HRVATSKA';
      },
    } as unknown as OcrEngine;
    expect((await readZone(blank, await side(1000), { now: NOW })).zone).toBeNull();
    expect(asked.every(Boolean)).toBe(true);
  });
});
