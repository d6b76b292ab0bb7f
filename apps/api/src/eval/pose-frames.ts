import sharp from 'sharp';
import type { FaceAnalyzer } from '../pipeline/faces.js';
import { renderHeadPose, type RgbImage } from './head-pose.js';
import { face, type PassportHolder } from './synthetic-documents.js';

/**
 * Camera frames of one person for the active-liveness suites: the frontal face and the head
 * turned for each beacon, as a 1280x720 webcam would film them (unmirrored), rendered from a
 * frontal portrait by `renderHeadPose`.
 */
export type PoseName = 'front' | 'turn_left' | 'turn_right' | 'look_up' | 'look_down';

/**
 * How each pose is rendered. The landmark models read a rendered turn at about a third of its
 * true angle, and a turn with the nose to the image's left weaker than one to its right on this
 * portrait, so that one is rendered mirrored (the mirror image turned the other way, mirrored
 * back). Chosen so every pose reads clearly past the widget's and the server's lines
 * (`test/unit/pose-frames.test.ts` checks the frames with the server's reader).
 */
export const POSE_RENDER: Record<Exclude<PoseName, 'front'>, { yawDeg: number; pitchDeg: number; pivot: number; mirrored: boolean }> = {
  // The person's left is the image's right in an unmirrored frame: the nose moves right.
  // Read by the server at 1280/960/640 px: -21/-20/-19 degrees, same face 0.56.
  turn_left: { yawDeg: 55, pitchDeg: 0, pivot: 0.75, mirrored: false },
  // 11/11/10, same face 0.62 (rendered unmirrored, 50 degrees read 6-10).
  turn_right: { yawDeg: 50, pitchDeg: 0, pivot: 0.6, mirrored: true },
  // -16 three times, same face 0.73.
  look_up: { yawDeg: 0, pitchDeg: -45, pivot: 0.75, mirrored: false },
  // 16/17/17, same face 0.76.
  look_down: { yawDeg: 0, pitchDeg: 50, pivot: 0.75, mirrored: false },
};

/** The invented identity printed on the sample person's specimen passport (UTO: ICAO's specimen state). */
export const SAMPLE_PERSON: PassportHolder & { expiry: string } = {
  surname: 'ORTEGA LINDQVIST',
  givenNames: 'MARTA',
  mrzSurname: 'ORTEGA LINDQVIST',
  mrzGiven: 'MARTA',
  state: 'UTO',
  number: 'X4829107',
  birth: '520914',
  expiry: '340301',
  portrait: face('grace_hopper.jpg'),
};

const WIDTH = 1280;
const HEIGHT = 720;
/** The face's width in the frame: a person about 60 cm from a laptop camera. */
const FACE_SHARE = 0.3;

/** The portrait scaled so the face fills FACE_SHARE of a 1280x720 frame, centred, on a plain wall. */
async function frameOf(portrait: Buffer, faces: FaceAnalyzer): Promise<RgbImage> {
  const face = await faces.analyse(portrait, 1024, { embedding: false });
  if (!face) throw new Error('no face in the portrait');
  const meta = await sharp(portrait).metadata();
  const [bx, by, bw, bh] = face.box;
  const scale = (FACE_SHARE * WIDTH) / (bw * meta.width!);
  const w = Math.round(meta.width! * scale);
  const h = Math.round(meta.height! * scale);
  const fx = (bx + bw / 2) * w;
  const fy = (by + bh / 2) * h;
  const left = Math.round(WIDTH / 2 - fx);
  const top = Math.round(HEIGHT / 2 - fy);
  const scaled = await sharp(portrait).removeAlpha().resize(w, h).toBuffer();
  const ext = {
    left: Math.max(0, left),
    right: Math.max(0, WIDTH - left - w),
    top: Math.max(0, top),
    bottom: Math.max(0, HEIGHT - top - h),
  };
  // A plain wall of the portrait's own edge colour (mirrored or copied edges would show more faces or stripes).
  const edge = await sharp(scaled)
    .extract({ left: 0, top: 0, width: Math.min(8, w), height: h })
    .stats();
  const [r, g, b] = edge.channels.map((c) => Math.round(c.mean));
  const extended = await sharp(scaled)
    .extend({ ...ext, background: { r: r!, g: g!, b: b! } })
    .toBuffer({ resolveWithObject: true });
  const { data, info } = await sharp(extended.data)
    .extract({ left: Math.max(0, -left), top: Math.max(0, -top), width: WIDTH, height: HEIGHT })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const raw = (img: RgbImage) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });

async function flop(img: RgbImage): Promise<RgbImage> {
  const { data, info } = await raw(img).flop().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const jpeg = (img: RgbImage) => raw(img).jpeg({ quality: 90 }).toBuffer();

/** The five frames of the person in `portrait` (JPEG bytes). */
export async function renderPoseFrames(portrait: Buffer, faces: FaceAnalyzer): Promise<Record<PoseName, Buffer>> {
  const frame = await frameOf(portrait, faces);
  const mirror = await flop(frame);
  const meshes = { plain: await faces.mesh(frame), mirrored: await faces.mesh(mirror) };
  if (!meshes.plain || !meshes.mirrored) throw new Error('no face mesh in the framed portrait');
  const out = { front: await jpeg(frame) } as Record<PoseName, Buffer>;
  for (const [name, r] of Object.entries(POSE_RENDER)) {
    const pose = { yawDeg: r.yawDeg, pitchDeg: r.pitchDeg };
    out[name as PoseName] = r.mirrored
      ? await jpeg(await flop(renderHeadPose(mirror, meshes.mirrored, pose, { pivot: r.pivot })))
      : await jpeg(renderHeadPose(frame, meshes.plain, pose, { pivot: r.pivot }));
  }
  return out;
}
