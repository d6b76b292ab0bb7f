/**
 * The face models' own thread (started by `FaceThread`): one `FaceAnalyzer`, answering one call at
 * a time as they come. Its long WebAssembly calls run here, so the pipeline's thread keeps
 * preparing pages and feeding the OCR engines meanwhile.
 */
import { parentPort } from 'node:worker_threads';
import type { DecodedImage } from '../../decode/decode.js';
import { FaceAnalyzer } from './faces.js';
import type { FaceCall, FaceReply, SearchTilesNotice, WireImage } from './face-thread-protocol.js';

const port = parentPort;
if (!port) throw new Error('face-thread-worker runs as a worker thread');

const asDecoded = (w: WireImage): DecodedImage => ({
  ...w,
  pixels: Buffer.from(w.pixels.buffer, w.pixels.byteOffset, w.pixels.byteLength),
});

const faces = await FaceAnalyzer.start().catch((err: unknown) => {
  port.postMessage({ kind: 'failed', message: (err as Error).message } satisfies FaceReply);
  throw err;
});

/** Per document call in progress, what answers whether its tiles are searched. */
const tileDecisions = new Map<number, (search: boolean) => void>();

port.on('message', (call: FaceCall | SearchTilesNotice) => {
  if (call.op === 'searchTiles') {
    tileDecisions.get(call.call)?.(call.search);
    tileDecisions.delete(call.call);
    return;
  }
  const work =
    call.op === 'analyse'
      ? faces.analyse(asDecoded(call.image), call.maxSide, { embedding: call.embedding })
      : call.op === 'analyseDocument'
        ? faces
            .analyseDocument(asDecoded(call.image), { searchTiles: new Promise<boolean>((decide) => tileDecisions.set(call.id, decide)) })
            .finally(() => tileDecisions.delete(call.id))
        : call.op === 'analyseSelfie'
          ? faces.analyseSelfie(asDecoded(call.image))
          : faces.similarity(call.a, call.b);
  work.then(
    (value) => port.postMessage({ kind: 'result', id: call.id, value } satisfies FaceReply),
    (err: unknown) => port.postMessage({ kind: 'error', id: call.id, message: (err as Error).message } satisfies FaceReply),
  );
});
port.postMessage({ kind: 'ready' } satisfies FaceReply);
