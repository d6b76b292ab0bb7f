/**
 * Runs our pipeline in process on the set, as a genuine user would submit each document: the
 * name as the document prints it, the document type a user would choose, the issuing country,
 * the back side where the set has one, and a fixture face as the selfie (only the fields and
 * `document_unreadable` are scored here).
 */
import { readFileSync } from 'node:fs';
import { VisionPipeline } from '@service/api/pipeline/vision-pipeline';
import type { RealDocumentCase } from './manifest.js';
import { readImage } from './images.js';
import type { ReaderResult } from './score.js';

const SELFIE = process.env.REAL_DOCS_SELFIE ?? '/work/shared/fixtures/faces/grace_hopper.jpg';

/** ICAO state codes of the set to ISO 3166-1 alpha-2 (the request's country); others give null. */
const ALPHA2: Record<string, string> = {
  AUT: 'AT',
  BEL: 'BE',
  CAN: 'CA',
  CHE: 'CH',
  CZE: 'CZ',
  D: 'DE',
  ESP: 'ES',
  FRA: 'FR',
  GBR: 'GB',
  HRV: 'HR',
  ISL: 'IS',
  JPN: 'JP',
  LIE: 'LI',
  LTU: 'LT',
  LVA: 'LV',
  MCO: 'MC',
  MLT: 'MT',
  NLD: 'NL',
  PER: 'PE',
  PRT: 'PT',
  QAT: 'QA',
  SRB: 'RS',
  SWE: 'SE',
  TWN: 'TW',
  UKR: 'UA',
  USA: 'US',
};

export const requestCountry = (c: RealDocumentCase): string | null => ALPHA2[c.country] ?? null;

export async function runOurs(
  cases: readonly RealDocumentCase[],
  onResult: (r: ReaderResult) => void = () => {},
): Promise<Map<string, ReaderResult>> {
  const selfie = readFileSync(SELFIE);
  const pipeline = await VisionPipeline.start({ ocrWorkers: 1 });
  const results = new Map<string, ReaderResult>();
  try {
    for (const c of cases) {
      const start = performance.now();
      let result: ReaderResult;
      try {
        const outcome = await pipeline.run(
          { documentType: c.documentType, submittedFullName: c.truth.fullName, country: requestCountry(c) },
          {
            docFront: readImage(c.images.front),
            docBack: c.images.back ? readImage(c.images.back) : null,
            selfie,
            liveness: null,
          },
          { alone: true },
        );
        const f = outcome.fieldsExtracted;
        result = {
          id: c.id,
          fields: {
            fullName: f.fullName,
            documentNumber: f.documentNumber,
            dateOfBirth: f.dateOfBirth,
            expiryDate: f.expiryDate,
            nationality: f.nationality,
          },
          unreadable: outcome.reasons.includes('document_unreadable'),
          ms: Math.round(performance.now() - start),
          detail: { verdict: outcome.verdict, reasons: outcome.reasons, documentOcr: outcome.scores.document_ocr ?? null },
        };
      } catch (e) {
        result = {
          id: c.id,
          fields: { fullName: null, documentNumber: null, dateOfBirth: null, expiryDate: null, nationality: null },
          unreadable: true,
          error: (e as Error).message,
          ms: Math.round(performance.now() - start),
        };
      }
      results.set(c.id, result);
      onResult(result);
    }
  } finally {
    await pipeline.stop();
  }
  return results;
}
