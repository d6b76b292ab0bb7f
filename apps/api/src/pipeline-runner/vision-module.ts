import { VisionPipeline } from '../pipeline/vision-pipeline.js';

/**
 * The real pipeline, as a child process loads it (see child-host.ts). A child runs one
 * verification at a time and reads its printed text once per run, so one text worker is all it
 * uses; each extra Tesseract worker held about 100 MB of WebAssembly heap that never shrinks.
 */
export async function createPipeline(): Promise<VisionPipeline> {
  return VisionPipeline.start({ ocrWorkers: 1 });
}
