/**
 * A cheap look at a JPEG's marker structure before anything decodes it: the frame size a decoder
 * would allocate for and the number of scans a progressive decoder would run. Linear in the bytes,
 * no allocation per scan; a hostile header is judged here instead of inside libjpeg.
 */

/** Same bound as the pipeline's `limitInputPixels`: larger frames are refused before decoding. */
export const JPEG_MAX_PIXELS = 50_000_000;
/**
 * A baseline JPEG has one scan per component (at most 4), an encoder's progressive script about
 * 10; libjpeg-turbo's own "max scans" guard for hostile files is 1000. 100 leaves room for odd
 * encoders and stops the 21,000-scan image that pins a core for minutes.
 */
export const JPEG_MAX_SCANS = 100;

export interface JpegStructure {
  width: number;
  height: number;
  components: number;
  progressive: boolean;
  scans: number;
  /** An end-of-image marker was found where the structure says it should be. */
  complete: boolean;
}

export type JpegVerdict =
  | { ok: true; structure: JpegStructure }
  | { ok: false; problem: 'not_a_jpeg' | 'no_frame' | 'empty_frame' | 'too_many_pixels' | 'too_many_scans'; structure?: JpegStructure };

/** SOFn markers carry the frame header; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not. */
const isFrameMarker = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
const isProgressive = (m: number) => m === 0xc2 || m === 0xc6 || m === 0xca || m === 0xce;
/** Markers without a length field. */
const standalone = (m: number) => m === 0x01 || (m >= 0xd0 && m <= 0xd7);

/** Reads the marker structure; never throws. A truncated file is reported, not refused. */
export function readJpegStructure(buf: Uint8Array): JpegStructure | null {
  if (buf.length < 4 || buf[0] !== 0xff || buf[1] !== 0xd8) return null;
  const s: JpegStructure = { width: 0, height: 0, components: 0, progressive: false, scans: 0, complete: false };
  let i = 2;
  let frames = 0;
  while (i + 1 < buf.length) {
    if (buf[i] !== 0xff) {
      i++; // garbage between segments: decoders skip it too
      continue;
    }
    const marker = buf[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd9) {
      s.complete = true;
      break;
    }
    if (standalone(marker) || marker === 0x00) {
      i += 2;
      continue;
    }
    if (i + 3 >= buf.length) break;
    const length = (buf[i + 2]! << 8) | buf[i + 3]!;
    if (length < 2) break;
    const body = i + 4;
    if (isFrameMarker(marker) && body + 5 < buf.length) {
      frames++;
      // Several frames (hierarchical JPEG): the decoder allocates for the largest.
      const height = (buf[body + 1]! << 8) | buf[body + 2]!;
      const width = (buf[body + 3]! << 8) | buf[body + 4]!;
      if (frames === 1 || width * height > s.width * s.height) {
        s.width = width;
        s.height = height;
        s.components = buf[body + 5]!;
      }
      s.progressive ||= isProgressive(marker);
    }
    i += 2 + length;
    if (marker === 0xda) {
      s.scans++;
      // Entropy-coded data runs to the next marker that is neither a stuffed 0x00 nor a restart.
      while (i + 1 < buf.length) {
        if (buf[i] === 0xff) {
          const next = buf[i + 1]!;
          if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) break;
        }
        i++;
      }
    }
  }
  return frames === 0 ? { ...s, width: 0, height: 0 } : s;
}

/** Whether a decoder may be given these bytes under the pixel and scan limits. */
export function checkJpegStructure(buf: Uint8Array, limits = { maxPixels: JPEG_MAX_PIXELS, maxScans: JPEG_MAX_SCANS }): JpegVerdict {
  const structure = readJpegStructure(buf);
  if (!structure) return { ok: false, problem: 'not_a_jpeg' };
  if (structure.width === 0 && structure.height === 0 && structure.components === 0) return { ok: false, problem: 'no_frame', structure };
  if (structure.width === 0 || structure.height === 0) return { ok: false, problem: 'empty_frame', structure };
  if (structure.width * structure.height > limits.maxPixels) return { ok: false, problem: 'too_many_pixels', structure };
  if (structure.scans > limits.maxScans) return { ok: false, problem: 'too_many_scans', structure };
  return { ok: true, structure };
}
