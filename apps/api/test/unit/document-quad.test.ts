import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage, type Region } from '../../src/pipeline/decode/decode.js';
import { findDocumentQuad, rectify, type FoundQuad, type Quad } from '../../src/pipeline/locate/document-quad.js';
import { apply, homography, type Point } from '@service/contract';
import { CARD, cardPixels, photographInPerspective, PORTRAIT } from '../helpers/card-in-perspective.js';

// The fields 30 px beside a portrait cropped tight.
const LAYOUT = {
  lines: ['Surname', 'LINDQVIST', 'Given names', 'ANNA MARIA', 'Date of expiry', '12 04 2031'],
  x: 270,
  top: 140,
  pitch: 50,
  labelSize: 20,
  valueSize: 34,
};

/** A desk with a wood grain's stripes (long straight edges of both polarities, beyond the card's). */
function desk(size: { width: number; height: number }): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><defs><pattern id="p" width="40" height="40" patternUnits="userSpaceOnUse" patternTransform="rotate(2)"><rect width="40" height="40" fill="#7b4f2c"/><rect width="14" height="40" fill="#94653c"/></pattern></defs><rect width="100%" height="100%" fill="url(#p)"/></svg>`,
  );
}

/** The card drawn onto `quad` of a photo of the desk; the portrait's box in the photo (relative). */
async function photograph(size: { width: number; height: number }, quad: Quad): Promise<{ bytes: Buffer; portrait: Region }> {
  const bytes = await photographInPerspective(await cardPixels(LAYOUT), quad, sharp(desk(size)));
  const toPhoto = homography(
    [
      [0, 0],
      [CARD.width, 0],
      [CARD.width, CARD.height],
      [0, CARD.height],
    ],
    quad,
  );
  const ps = (
    [
      [PORTRAIT.left, PORTRAIT.top],
      [PORTRAIT.left + PORTRAIT.width, PORTRAIT.top],
      [PORTRAIT.left + PORTRAIT.width, PORTRAIT.top + PORTRAIT.height],
      [PORTRAIT.left, PORTRAIT.top + PORTRAIT.height],
    ] as Point[]
  ).map((p) => apply(toPhoto, p));
  const xs = ps.map(([x]) => x);
  const ys = ps.map(([, y]) => y);
  // The face detector's box: the middle of the portrait.
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const portrait = {
    left: (x0 + 0.2 * (x1 - x0)) / size.width,
    top: (y0 + 0.2 * (y1 - y0)) / size.height,
    width: (0.6 * (x1 - x0)) / size.width,
    height: (0.6 * (y1 - y0)) / size.height,
  };
  return { bytes, portrait };
}

const SIZE = { width: 1600, height: 1200 };

/** Where a quad's left and right sides meet: every upright line of the card in it runs there. */
function uprightsMeet([[ax, ay], [cx, cy], [dx, dy], [bx, by]]: Quad): Point {
  const t = ((cx - ax) * (dy - cy) - (cy - ay) * (dx - cx)) / ((bx - ax) * (dy - cy) - (by - ay) * (dx - cx));
  return [ax + t * (bx - ax), ay + t * (by - ay)];
}

/** The direction from one point to another, in degrees from straight down. */
const degrees = ([x0, y0]: Point, [x1, y1]: Point) => (Math.atan2(x1 - x0, y1 - y0) * 180) / Math.PI;
// Seen from low and to the right: the top edge falls 9 degrees, the right side is shorter.
const TILTED: Quad = [
  [260, 300],
  [1350, 470],
  [1310, 1010],
  [220, 990],
];

describe('the document found by its edges and seen square on', () => {
  it('a card in perspective on a striped desk: its four corners, not the stripes beyond them', async () => {
    const { bytes, portrait } = await photograph(SIZE, TILTED);
    const img = await decodeImage(bytes);
    const found = await findDocumentQuad(img, portrait);
    expect(found?.cut).toBe(false);
    // Within 1.5% of the photo's width of each true corner (the card's rounded corners excepted).
    for (const [i, [x, y]] of found!.corners.entries()) {
      expect(Math.hypot(x - TILTED[i]![0], y - TILTED[i]![1])).toBeLessThan(0.015 * SIZE.width);
    }
  });

  it('squared up, the portrait is back at its place on the card and upright', async () => {
    const { bytes, portrait } = await photograph(SIZE, TILTED);
    const img = await decodeImage(bytes);
    const squared = rectify(img, (await findDocumentQuad(img, portrait))!);
    // The card's shape (ID-1), whatever the perspective made of it.
    expect(squared.image.pixelWidth / squared.image.pixelHeight).toBeCloseTo(85.6 / 54, 1);
    // Where the true perspective takes the portrait's box: the same, within a little of the card.
    const onCard = squared.region(portrait);
    const toCard = homography(TILTED, [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ]);
    const [x0, y0] = [portrait.left * SIZE.width, portrait.top * SIZE.height];
    const [x1, y1] = [x0 + portrait.width * SIZE.width, y0 + portrait.height * SIZE.height];
    const carried = (
      [
        [x0, y0],
        [x1, y0],
        [x1, y1],
        [x0, y1],
      ] as Point[]
    ).map((p) => apply(toCard, p));
    expect(Math.abs(onCard.left - Math.min(...carried.map(([x]) => x)))).toBeLessThan(0.02);
    expect(Math.abs(onCard.top - Math.min(...carried.map(([, y]) => y)))).toBeLessThan(0.02);
    expect(Math.abs(onCard.left + onCard.width - Math.max(...carried.map(([x]) => x)))).toBeLessThan(0.02);
    // Its left edge is upright again: the portrait's column of dark pixels starts at one x in its top and bottom rows.
    const { data, info } = await sharp(squared.image.pixels, {
      raw: { width: squared.image.pixelWidth, height: squared.image.pixelHeight, channels: 3 },
    })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const edgeAt = (yRel: number) => {
      const y = Math.round(yRel * info.height);
      for (let x = Math.round(0.02 * info.width); x < info.width / 2; x++) if (data[y * info.width + x]! < 120) return x / info.width;
      return 1;
    };
    const top = edgeAt((PORTRAIT.top + 0.05 * PORTRAIT.height) / CARD.height);
    const bottom = edgeAt((PORTRAIT.top + 0.95 * PORTRAIT.height) / CARD.height);
    expect(Math.abs(top - bottom)).toBeLessThan(0.01);
    expect(Math.abs(top - PORTRAIT.left / CARD.width)).toBeLessThan(0.02);
  });

  // Seen from the left and above: its sides converge downwards (the left one past the frame).
  const cut: Quad = [
    [-250, 150],
    [1250, 330],
    [1150, 1000],
    [-150, 1150],
  ];
  // Photographed and found once for the two tests of it.
  let cutFound: Promise<FoundQuad | null> | null = null;
  const findCut = () =>
    (cutFound ??= photograph(SIZE, cut).then(async ({ bytes, portrait }) => findDocumentQuad(await decodeImage(bytes), portrait)));

  it('a card cut by the frame on one side: the part in the picture, its right corners found, its cut side within the photo', async () => {
    const found = await findCut();
    expect(found?.cut).toBe(true);
    const [tl, tr, br, bl] = found!.corners;
    for (const [p, truth] of [
      [tr, cut[1]],
      [br, cut[2]],
    ] as const)
      expect(Math.hypot(p[0] - truth[0], p[1] - truth[1])).toBeLessThan(0.015 * SIZE.width);
    for (const p of [tl, bl]) {
      expect(p[0]).toBeGreaterThanOrEqual(0);
      expect(p[0]).toBeLessThan(0.25 * SIZE.width);
    }
  });

  it("a cut side is drawn towards the vanishing point of the card's upright lines (its portrait's edge the guide), not parallel to the far side", async () => {
    const [tl, , , bl] = (await findCut())!.corners;
    const drawn = degrees(tl, bl);
    // Within the line finder's steps of angle (2 degrees), and the corner kept in the photo.
    expect(Math.abs(drawn - degrees(tl, uprightsMeet(cut)))).toBeLessThan(3);
    // Parallel to the far side it would lean the other way, 12 degrees off.
    expect(Math.abs(drawn - degrees(cut[1], cut[2]))).toBeGreaterThan(8);
  });

  it('under a slight tilt too, the upright lines 6.5 degrees apart: the cut side runs to their vanishing point', async () => {
    // The guide and the far side cross at under 11.5 degrees, where a corner could not be.
    const mild: Quad = [
      [-250, 150],
      [1250, 250],
      [1200, 1050],
      [-200, 1150],
    ];
    const { bytes, portrait } = await photograph(SIZE, mild);
    const [tl, , , bl] = (await findDocumentQuad(await decodeImage(bytes), portrait))!.corners;
    const drawn = degrees(tl, bl);
    // 1.6 degrees off; drawn parallel to the far side (-3.6 degrees), it was 5.5 off.
    expect(Math.abs(drawn - degrees(tl, uprightsMeet(mild)))).toBeLessThan(3);
  });

  it('a card cut by the frame on two sides: no quad, the photo is read as it is', async () => {
    const corner: Quad = [
      [-250, -150],
      [1250, -100],
      [1200, 900],
      [-200, 850],
    ];
    const { bytes, portrait } = await photograph(SIZE, corner);
    expect(await findDocumentQuad(await decodeImage(bytes), portrait)).toBeNull();
  });

  it('a homography takes each of its four points where it was asked to', () => {
    const from: Point[] = [
      [0, 0],
      [100, 0],
      [100, 60],
      [0, 60],
    ];
    const H = homography(from, TILTED);
    for (const [i, p] of from.entries()) {
      const [x, y] = apply(H, p);
      expect(x).toBeCloseTo(TILTED[i]![0], 6);
      expect(y).toBeCloseTo(TILTED[i]![1], 6);
    }
  });
});
