import { describe, expect, it } from 'vitest';
import { buildCase } from '@service/fixtures/eval-set';
import { decodeImage, straighten } from '../../src/pipeline/decode/decode.js';
import { parseMrz, findMrzCandidates } from '../../src/pipeline/read/zone/mrz.js';
import { OcrEngine } from '../../src/pipeline/read/ocr/ocr.js';
import { estimateSkew, findMrzBand } from '../../src/pipeline/locate/skew.js';

/**
 * Two ID-2 cards of the evaluation's dev split, on a wood desk, tilted 10-11 degrees: in one the
 * lowest two long lines are the zone's second line and the card's own edge against the dark desk;
 * in the other the zone's second line merges with the desk's grain and the lowest similar pair is
 * the line above the zone and its first line. The band must hold the whole zone either way.
 */
describe('findMrzBand on cards lying on a desk', () => {
  it.each([125, 98])('dev case %i: the band holds both lines of the zone, which parses', { timeout: 60_000 }, async (index) => {
    const c = await buildCase('dev', index);
    const side = await decodeImage(c.docFront);
    const level = await straighten(side, await estimateSkew(side));
    const band = await findMrzBand(level);
    expect(band).not.toBeNull();
    const ocr = await OcrEngine.start({ textWorkers: 0 });
    try {
      const text = await ocr.readMrzRegion(level, band!);
      const zone = findMrzCandidates(text)
        .map((l) => parseMrz(l, new Date('2026-11-23')))
        .find(Boolean);
      expect(zone?.format).toBe('TD2');
    } finally {
      await ocr.stop();
    }
  });
});
