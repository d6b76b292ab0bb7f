/**
 * The two images of a pair, made from the set's photographs and cached under DATA_DIR/rendered:
 * the document (the photo printed as the portrait of an ID card by tools/fixtures'
 * renderDocument, grey on 4 documents in 10, deterministic by the photo's id) and the selfie (the
 * photo itself). A document's portrait is a head-and-shoulders crop of the photo around its face
 * (`portraitCrop`), as an issuing office takes one: an in-flight photo of a whole astronaut
 * printed as a portrait would hold a face of a few pixels, which no real document does. `plain` uses them as they are; `camera` photographs the document as the
 * synthetic set does (photographDocument: background, tilt, light, glare, defocus, noise, JPEG)
 * and passes the selfie through the selfie camera's effects (`selfie-camera.ts`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Rng } from '@service/fixtures/random';
import { renderDocument, type DocumentData } from '@service/fixtures/documents';
import { DATA_DIR, photoFile, type Photo } from './manifest.js';
import { photographedDocument, selfieThroughCamera } from './selfie-camera.js';
import sharp from 'sharp';
import { eyeDistance, type FivePoints } from './align.js';

export type RenderMode = 'plain' | 'camera';
export const RENDERED_DIR = path.join(DATA_DIR, 'rendered');

/** Whether the photo's document prints its portrait in grey (4 in 10, by the photo's id). */
export const greyPortrait = (p: Photo) => Rng.of('faces-doc', p.id).next() < 0.4;

/** The document's data: a specimen whose only real part is the portrait. */
export function documentData(p: Photo, sex: 'F' | 'M', rng: Rng, portrait: string): DocumentData {
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
    portrait,
    greyPortrait: greyPortrait(p),
  };
}

/**
 * The part of a photo an ID portrait shows (pixels of the photo as readRgb reads it, EXIF-turned,
 * longer side at most 4096): 4 eye distances wide, 4/3 as tall, the eyes 42% down (an ICAO
 * passport photo's proportions), moved inside the photo and cut by its edges.
 */
export function portraitCrop(
  points: FivePoints,
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number } {
  const e = eyeDistance(points);
  const cx = (points[0][0] + points[1][0]) / 2;
  const cy = (points[0][1] + points[1][1]) / 2;
  const w = Math.min(width, Math.round(4 * e));
  const h = Math.min(height, Math.round((4 * e * 4) / 3));
  const left = Math.max(0, Math.min(width - w, Math.round(cx - w / 2)));
  const top = Math.max(0, Math.min(height - h, Math.round(cy - 0.42 * h)));
  return { left, top, width: w, height: h };
}

/**
 * The document image of `p` (file path), made once, its portrait cut from the photo around
 * `face` (the five points of the photo's face); null when the photo has no face found.
 */
export async function documentImage(p: Photo, sex: 'F' | 'M', mode: RenderMode, face: FivePoints | null): Promise<string | null> {
  if (!face) return null;
  fs.mkdirSync(RENDERED_DIR, { recursive: true });
  const file = path.join(RENDERED_DIR, mode === 'plain' ? `${p.id}.portrait-doc.png` : `${p.id}.portrait-doc.camera.jpg`);
  if (fs.existsSync(file)) return file;
  const portrait = path.join(RENDERED_DIR, `${p.id}.portrait.png`);
  if (!fs.existsSync(portrait)) {
    const photo = sharp(photoFile(p)).rotate().resize(4096, 4096, { fit: 'inside', withoutEnlargement: true });
    const { data, info } = await photo.raw().toBuffer({ resolveWithObject: true });
    await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels as 3 } })
      .extract(portraitCrop(face, info.width, info.height))
      .png()
      .toFile(portrait);
  }
  const rng = Rng.of('faces-doc', p.id);
  rng.next(); // the draw greyPortrait reads
  const data = documentData(p, sex, rng, portrait);
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
  if (!fs.existsSync(file))
    fs.writeFileSync(file, await selfieThroughCamera(Rng.of('faces-selfie-camera', p.id), fs.readFileSync(photoFile(p))));
  return file;
}
