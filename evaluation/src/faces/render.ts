/**
 * The two images of a pair, made from the set's photographs and cached under DATA_DIR/rendered:
 * the document (the photo printed as the portrait of an ID card by tools/fixtures'
 * renderDocument, grey on 4 documents in 10, deterministic by the photo's id) and the selfie (the
 * photo itself). `plain` uses them as they are; `camera` photographs the document as the
 * synthetic set does (photographDocument: background, tilt, light, glare, defocus, noise, JPEG)
 * and passes the selfie through the selfie camera's effects (`selfie-camera.ts`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Rng } from '@service/fixtures/random';
import { renderDocument, type DocumentData } from '@service/fixtures/documents';
import { DATA_DIR, photoFile, type Photo } from './manifest.js';
import { photographedDocument, selfieThroughCamera } from './selfie-camera.js';

export type RenderMode = 'plain' | 'camera';
export const RENDERED_DIR = path.join(DATA_DIR, 'rendered');

/** Whether the photo's document prints its portrait in grey (4 in 10, by the photo's id). */
export const greyPortrait = (p: Photo) => Rng.of('faces-doc', p.id).next() < 0.4;

/** The document's data: a specimen whose only real part is the portrait. */
export function documentData(p: Photo, sex: 'F' | 'M', rng: Rng): DocumentData {
  return {
    kind: 'id_card_printed',
    layout: Math.floor(rng.next() * 3),
    font: 'DejaVu Sans',
    name: { surname: 'SPECIMEN', given: ['ALEX'] },
    upperCase: true,
    sex,
    birth: '1970-01-01',
    issue: '2020-01-01',
    expiry: '2030-01-01',
    number: 'X0000000',
    nationality: 'UTO',
    country: 'UT',
    countryName: 'Utopia',
    dateStyle: 'dd.mm.yyyy',
    portrait: photoFile(p),
    greyPortrait: greyPortrait(p),
  };
}

/** The document image of `p` (file path), made once. */
export async function documentImage(p: Photo, sex: 'F' | 'M', mode: RenderMode): Promise<string> {
  fs.mkdirSync(RENDERED_DIR, { recursive: true });
  const file = path.join(RENDERED_DIR, mode === 'plain' ? `${p.id}.doc.png` : `${p.id}.doc.camera.jpg`);
  if (fs.existsSync(file)) return file;
  const rng = Rng.of('faces-doc', p.id);
  rng.next(); // the draw greyPortrait reads
  const data = documentData(p, sex, rng);
  if (mode === 'plain') {
    const { front } = await renderDocument(rng, data, 1000);
    fs.writeFileSync(file, front.png);
  } else {
    fs.writeFileSync(file, await photographedDocument(Rng.of('faces-doc-camera', p.id), data));
  }
  return file;
}

/** The selfie image of `p` (file path): the photo, or the photo through the selfie camera. */
export async function selfieImage(p: Photo, mode: RenderMode): Promise<string> {
  if (mode === 'plain') return photoFile(p);
  fs.mkdirSync(RENDERED_DIR, { recursive: true });
  const file = path.join(RENDERED_DIR, `${p.id}.selfie.camera.jpg`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, await selfieThroughCamera(Rng.of('faces-selfie-camera', p.id), fs.readFileSync(photoFile(p))));
  return file;
}
