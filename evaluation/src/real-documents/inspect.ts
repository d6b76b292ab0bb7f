/**
 * `node dist/real-documents/inspect.js <case id> [--text] [--zone]`: what the pipeline read of one dev-split
 * document, stage by stage: the zone as fitted with its checks, each printed reading's proposals
 * (and its text with --text), and the fused fields. Refuses test-split cases: those are never
 * looked at one by one while the pipeline is tuned.
 */
import { parseArgs } from 'node:util';
import { decodeImage } from '@service/api/pipeline/decode/decode';
import { FaceThread } from '@service/api/pipeline/read/faces/face-thread';
import { OcrEngine } from '@service/api/pipeline/read/ocr/ocr';
import { readDocumentPhoto } from '@service/api/pipeline/read/read-document-photo';
import { fieldsExtracted } from '@service/api/pipeline/score/judge';
import { readImage } from './images.js';
import { loadManifest } from './manifest.js';
import { requestCountry } from './run-ours.js';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { text: { type: 'boolean', default: false }, zone: { type: 'boolean', default: false } } });
const manifest = loadManifest();
const [ocr, faces] = await Promise.all([OcrEngine.start({ textWorkers: 1, mrzWorkers: 1 }), FaceThread.start()]);
try {
  for (const id of positionals) {
    const c = manifest.cases.find((x) => x.id === id);
    if (!c) throw new Error(`no case ${id}`);
    if (c.split !== 'dev') throw new Error(`${id} is in the test split: not inspected`);
    const frontBytes = readImage(c.images.front);
    const front = await decodeImage(frontBytes);
    const back = c.images.back ? await decodeImage(readImage(c.images.back)) : null;
    const read = await readDocumentPhoto(
      ocr,
      faces,
      { front, back, frontBytes, documentType: c.documentType, country: requestCountry(c), now: new Date(), readAhead: false },
      (_stage, work) => work(),
    );
    const e = read.evidence;
    console.log(`\n=== ${id} (${c.layout}, ${front.pixelWidth}x${front.pixelHeight}) zoneSeen=${read.zoneSeen} quality=${JSON.stringify(read.quality)}`);
    console.log(`truth: ${JSON.stringify(c.truth)}`);
    if (e.zone) console.log(`zone ${e.zone.layout} checks=${JSON.stringify(e.zone.checks)} repairs=${e.zone.repairs}\n  ${e.zone.lines.join('\n  ')}`);
    for (const p of e.printed) {
      console.log(`printed (confidence ${p.confidence.toFixed(2)}): ${p.proposals.map((x) => `${x.field}=${x.value}@${x.confidence.toFixed(2)}`).join('  ')}`);
      if (values.text) console.log(p.text.replace(/^/gm, '    | '));
    }
    for (const [f, v] of Object.entries(e.fields))
      console.log(`  ${f.padEnd(15)} ${String(v.value).padEnd(30)} ${v.confidence.toFixed(2)} ${v.checked ? 'checked' : ''}`);
    console.log(`reported: ${JSON.stringify(fieldsExtracted(e))} disagreements=${e.disagreements.join(',')} expiryInDoubt=${e.expiryInDoubt}`);
    if (values.zone) for (const side of [front, back]) if (side) console.log(`zone region as read:\n${(await ocr.readMrzRegion(side, 0.6)).replace(/^/gm, '    | ')}`);
  }
} finally {
  await Promise.all([ocr.stop(), faces.stop()]);
}
