/**
 * The real-face set's images through the synthetic set's cameras (tools/fixtures), so a pair is
 * judged as the service sees one: the document rendered and photographed on a background with
 * tilt, light, glare, noise and JPEG (`photographDocument`, its capture drawn as the synthetic set
 * draws one), and the selfie photo re-framed to a phone camera's frame with the selfie camera's
 * roll, mirroring, light, noise and JPEG (`drawSelfieParams` and `cameraEffects`, as
 * `renderSelfie` applies them to its fixture portraits).
 */
import sharp from 'sharp';
import { ASPECT, renderDocument, type DocumentData } from '@service/fixtures/documents';
import { cameraEffects, documentQuad, photographDocument, rawInput, toRaw } from '@service/fixtures/capture';
import { drawSelfieParams } from '@service/fixtures/selfies';
import { drawCapture } from '@service/fixtures/eval-set';
import type { Rng } from '@service/fixtures/random';

/** The document rendered at the width it is drawn in the frame and photographed: a JPEG. */
export async function photographedDocument(rng: Rng, data: DocumentData): Promise<Buffer> {
  const p = drawCapture(rng, ASPECT[data.kind]);
  const quad = documentQuad(ASPECT[data.kind], p);
  const rendered = await renderDocument(rng, data, Math.min(4200, Math.max(300, Math.round(quad.drawWidth))));
  return (await photographDocument(rng, rendered.front, quad.quad, p)).jpeg;
}

/**
 * The photo as a phone's front camera gives it: scaled to the drawn selfie frame's longer side
 * (never enlarged; its own framing kept, since cutting it to the frame's aspect could cut the
 * face), rolled, mirrored, lit well or badly, noisy, JPEG.
 */
export async function selfieThroughCamera(rng: Rng, photo: Buffer): Promise<Buffer> {
  const p = drawSelfieParams(rng);
  const src = await toRaw(sharp(photo).rotate().removeAlpha().toColourspace('srgb'));
  const scale = Math.min(1, Math.max(p.width, p.height) / Math.max(src.width, src.height));
  const outW = Math.max(16, Math.round(src.width * scale));
  const outH = Math.max(16, Math.round(src.height * scale));
  let img = sharp(src.data, rawInput(src)).resize(outW, outH, { fit: 'fill', kernel: 'lanczos3' });
  if (p.mirrored) img = img.flop();
  const scaled = await toRaw(img);
  const rolled = await toRaw(sharp(scaled.data, rawInput(scaled)).rotate(p.roll, { background: '#777' }));
  let framed = sharp(rolled.data, rawInput(rolled)).extract({
    left: Math.round((rolled.width - outW) / 2),
    top: Math.round((rolled.height - outH) / 2),
    width: outW,
    height: outH,
  });
  if (p.light === 'poor') framed = framed.linear([1.05, 0.92, 0.72], [0, 0, 0]); // warm indoor lamp, as renderSelfie
  const base = await toRaw(framed.removeAlpha());
  const out = await cameraEffects(
    rng,
    base,
    { lightFalloff: p.lightFalloff, shadow: false, exposure: p.exposure, defocus: p.defocus, noise: p.noise, quality: p.quality },
    null,
  );
  return out.jpeg;
}
