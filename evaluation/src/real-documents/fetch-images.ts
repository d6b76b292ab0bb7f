/**
 * Brings the set's images back from their sources into REAL_DOCS_DIR and checks each sha256:
 * `npm run real-docs:fetch` (add `--offline` to use local snapshots only).
 */
import { loadManifest } from './manifest.js';
import { ensureImage, DATA_DIR, type ImageSource } from './images.js';

const network = !process.argv.includes('--offline');
const manifest = loadManifest();
const counts: Record<ImageSource, number> = { present: 0, mirror: 0, network: 0 };
const failures: string[] = [];
for (const c of manifest.cases) {
  for (const img of [c.images.front, c.images.back]) {
    if (!img) continue;
    try {
      counts[await ensureImage(img, { network })]++;
    } catch (e) {
      failures.push((e as Error).message);
    }
  }
}
console.log(
  `${DATA_DIR}/images: ${counts.present} present, ${counts.mirror} from snapshots, ${counts.network} downloaded, ${failures.length} missing`,
);
for (const f of failures) console.error(`  ${f}`);
process.exitCode = failures.length > 0 ? 1 : 0;
