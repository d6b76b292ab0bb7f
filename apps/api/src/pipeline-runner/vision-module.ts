import { chosenOcrEngine } from '../pipeline/read/ocr/ocr.js';
import { VisionPipeline } from '../pipeline/vision-pipeline.js';

/**
 * The real pipeline, as a child process loads it (see child-host.ts). A child runs one
 * verification at a time; alone on the machine (`RunHints`), it reads a text page two ways at
 * once, so it has two text workers. A native one holds about 30 MB; a tesseract.js one about
 * 100 MB of WebAssembly heap that never shrinks, in the child itself: one then.
 */
export async function createPipeline(): Promise<VisionPipeline> {
  return VisionPipeline.start({ ocrWorkers: chosenOcrEngine() === 'native' ? 2 : 1 });
}
