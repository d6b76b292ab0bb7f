// Puts the OCR models where the pipeline loads them, from npm packages only (nothing is fetched):
//   models/tessdata/eng.traineddata.gz   <- @tesseract.js-data/eng (4.0.0_best_int, Apache-2.0)
//   models/tessdata/ocrb.traineddata.gz  <- @idpass/smartscanner-capacitor (Apache-2.0): the OCR-B
//                                           model inside its Android archive, assets/tessdata/ocrb_int.traineddata
//   models/tessdata/plain/*.traineddata  <- the same, uncompressed, as native Tesseract reads them
// Runs as part of the build; does nothing when the files are already there.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import yauzl from 'yauzl';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'models', 'tessdata');
fs.mkdirSync(out, { recursive: true });

const OCRB_SIZE = 1_495_162;

function packageDir(name) {
  let dir = path.dirname(require.resolve(`${name}/package.json`));
  return dir;
}

// eng
const engTarget = path.join(out, 'eng.traineddata.gz');
if (!fs.existsSync(engTarget)) {
  const src = path.join(packageDir('@tesseract.js-data/eng'), '4.0.0_best_int', 'eng.traineddata.gz');
  fs.copyFileSync(src, engTarget);
  console.log(`models: eng.traineddata.gz from @tesseract.js-data/eng (${fs.statSync(engTarget).size} bytes)`);
}

// OCR-B, from the zip (AAR) inside the capacitor package
const ocrbTarget = path.join(out, 'ocrb.traineddata.gz');
if (!fs.existsSync(ocrbTarget)) {
  const aar = path.join(
    packageDir('@idpass/smartscanner-capacitor'),
    'android',
    'local-maven',
    'org',
    'idpass',
    'smartscanner',
    'smartscannerlib-release',
    '1.0',
    'smartscannerlib-release-1.0.aar',
  );
  const data = await new Promise((resolve, reject) => {
    yauzl.open(aar, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      zip.on('entry', (entry) => {
        if (entry.fileName !== 'assets/tessdata/ocrb_int.traineddata') return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks = [];
          stream.on('data', (c) => chunks.push(c));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks));
          });
        });
      });
      zip.on('end', () => reject(new Error('ocrb_int.traineddata not found in the AAR')));
      zip.readEntry();
    });
  });
  if (data.length !== OCRB_SIZE) throw new Error(`unexpected ocrb_int.traineddata size ${data.length} (expected ${OCRB_SIZE})`);
  fs.writeFileSync(ocrbTarget, gzipSync(data));
  console.log(`models: ocrb.traineddata.gz from @idpass/smartscanner-capacitor (${data.length} bytes)`);
}

// Native Tesseract (native/ocr-engine.cpp) reads models uncompressed.
fs.mkdirSync(path.join(out, 'plain'), { recursive: true });
for (const lang of ['eng', 'ocrb']) {
  const plain = path.join(out, 'plain', `${lang}.traineddata`);
  if (!fs.existsSync(plain)) fs.writeFileSync(plain, gunzipSync(fs.readFileSync(path.join(out, `${lang}.traineddata.gz`))));
}
