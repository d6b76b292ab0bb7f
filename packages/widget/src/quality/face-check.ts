import { loadVision } from '../vision/vision.js';

/**
 * The local "is there a face in this selfie?" check behind the `no_face_in_selfie` hint. The
 * detector runs in the frame worker (loaded lazily when a selfie step begins), never on the page's
 * main thread. Null when no detector can run: then no hint is shown (the server decides).
 */
export function preloadFaceDetector(base: string): void {
  void loadVision(base);
}

export async function selfieHasFace(photo: Blob, base: string): Promise<boolean | null> {
  const vision = await loadVision(base);
  if (!vision) return null;
  const reading = await vision.detect(photo);
  return reading ? reading.face !== null : null;
}
