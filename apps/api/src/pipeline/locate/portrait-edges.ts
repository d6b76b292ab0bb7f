import type { GreyPage } from '../decode/decode.js';
import { histogramPercentile } from '../decode/histogram.js';

/** Columns [left, right) and rows [top, bottom) of a grey page, in pixels. */
export interface PageBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * A column is empty when at most this share of its rows holds ink (2 px in any case, for noise):
 * a letter's thin diagonal (the middle of an N) still holds a few pixels of ink.
 */
const EMPTY_SHARE = 0.005;
/** The scan starts this share of the face box's width inside it: a detector's box can reach past a tight portrait's edge. */
const START_INSIDE = 0.15;
/** Ink: this many grey levels under the paper, the column's 90th percentile over the rows judged. */
const INK_UNDER_PAPER = 40;
const PAPER_PERCENTILE = 0.9;
/** The gap between a portrait and the print beside it: this share of the page's width, at least 4 px (a small card's: 7 px). */
const GAP_SHARE = 0.003;
/**
 * The rows judged: from the face box's top (the brow) to this share of its height below it (the
 * shoulders, as wide as a loose portrait). None above the brow: a hat or a title there crosses the
 * gap beside a tight portrait, and on a page left leaning a few degrees (under perspective the
 * skew estimate follows a card's long edge) every row more closes the gap along the portrait's
 * slanting edge. Judged from a quarter of the face's height above, the gap beside a licence's
 * portrait was never found and its fields were painted out (check set tenth/x044, rejected).
 */
const ROWS_BELOW = 0.6;
/** The rows judged for a leaning edge: from the brow to this share of the face's height below its box. */
const ROWS_BELOW_LEANING = 0.3;
/**
 * How far a portrait's edge may lean on the page (px per row), tried in turn where no upright gap
 * lies beside it: 0, then each of 1.5-12 degrees either way. A side levelled by its text lines
 * under perspective keeps its portrait's edges as the photo showed them, upright, and they lean
 * by the turn that levelled it: on a licence photographed turned in depth (check set monoA/x053,
 * levelled 8 degrees), the upright gap was closed over the portrait's height and the blank took
 * the labels and first letters beside it, and the genuine user was rejected as unreadable.
 */
const LEANS = [0, ...[1.5, 3, 4.5, 6, 7.5, 9, 10.5, 12].flatMap((d) => [Math.tan((d * Math.PI) / 180), -Math.tan((d * Math.PI) / 180)])];

/**
 * The blank's bounds on a page: from column `left` up to (not including) `right` at row `row`,
 * each bound leaning its own px per row down (0: upright). `columnsAt` gives them on any row.
 */
export interface PortraitColumns {
  left: number;
  right: number;
  leftLean: number;
  rightLean: number;
  row: number;
}

/**
 * The blank over a printed portrait narrowed, left and right, to the portrait's own edges. The
 * blank is drawn from the face box with room for hair and a loose crop (`portraitRegion`): beside
 * a portrait cropped tight, that room is the print beside it. On cards drawn differently from the
 * evaluation set (labels above their values, the portrait cropped to the face), it painted out
 * the first letters of every field beside the portrait and rejected genuine licences as
 * unreadable. From just inside the face outward, the first run of empty columns (no ink from the
 * face's brow to its shoulders) is the gap between the portrait and what lies beside it; the
 * blank then ends half way across it; where no upright run lies, leaning ones (`LEANS`). Where no
 * such gap lies within the blank (a loose crop whose shoulders fill it, the desk beside a card's
 * edge) the blank is kept as it was.
 */
export function portraitColumns(page: GreyPage, blank: PageBox, face: PageBox): PortraitColumns {
  // The rows of the face, from its brow to its shoulders: the blank's own rows reach past a
  // small card's edge onto the desk, dark across every column.
  const faceHeight = face.bottom - face.top;
  const top = Math.max(0, Math.floor(blank.top), Math.floor(face.top));
  const left = Math.max(0, Math.floor(blank.left));
  const right = Math.min(page.width, Math.ceil(blank.right));
  const bottom = offTheCardFrom(
    page,
    left,
    right,
    top,
    Math.min(page.height, Math.ceil(blank.bottom), Math.ceil(face.bottom + ROWS_BELOW * faceHeight)),
  );
  const row = Math.round((top + bottom) / 2);
  if (bottom - top < 8 || right - left < 8) return { left, right, leftLean: 0, rightLean: 0, row };
  // Leaning, to the upper shoulders only: under the perspective that leans it, the card's bottom
  // edge slants across the rows below, its desk in the columns beside a portrait (x053: from 0.45
  // face heights under the face box).
  const leaningBottom = Math.min(bottom, Math.ceil(face.bottom + ROWS_BELOW_LEANING * faceHeight));
  const hist = new Uint32Array(256);
  // A column `x` at the middle row, leaning `lean` px per row down, within the blank's columns.
  const empty = (x: number, lean: number) => {
    // Ink against the column's own paper: light falls off across a card, by more than the margin.
    hist.fill(0);
    let rows = 0;
    const end = lean === 0 ? bottom : leaningBottom;
    for (let y = top; y < end; y++) {
      const at = x + Math.round(lean * (y - row));
      // A leaning edge stays within the blank: round a loose portrait's shoulders it is none.
      if (at < left || at >= right) return false;
      hist[page.pixels[y * page.width + at]!]!++;
      rows++;
    }
    const ink = histogramPercentile(hist, rows, PAPER_PERCENTILE) - INK_UNDER_PAPER;
    const maxInk = Math.max(2, EMPTY_SHARE * rows);
    let n = 0;
    for (let v = 0; v < ink; v++) if ((n += hist[v]!) > maxInk) return false;
    return true;
  };
  const gap = Math.max(4, Math.round(GAP_SHARE * page.width));
  // Outward from the face's edge, one side then the other.
  const edge = (from: number, to: number, step: 1 | -1, lean: number) => {
    let run = 0;
    for (let x = from; step > 0 ? x < to : x >= to; x += step) {
      run = empty(x, lean) ? run + 1 : 0;
      // The run began gap - 1 columns back: the blank keeps the half of the gap next to the portrait.
      if (run >= gap) return x - step * (gap - 1) + step * Math.floor(gap / 2);
    }
    return null;
  };
  // Upright first; only where no upright gap lies, leaning ever more (`LEANS`).
  const leaning = (from: number, to: number, step: 1 | -1) => {
    for (const lean of LEANS) {
      const x = edge(from, to, step, lean);
      if (x !== null) return { x, lean };
    }
    return null;
  };
  const inside = START_INSIDE * (face.right - face.left);
  const faceRight = Math.max(left, Math.min(right, Math.ceil(face.right - inside)));
  const faceLeft = Math.max(left, Math.min(right, Math.floor(face.left + inside)));
  const r = leaning(faceRight, right, 1);
  const l = leaning(faceLeft - 1, left, -1);
  return {
    left: l === null ? left : l.x + 1,
    right: r === null ? right : r.x,
    leftLean: l?.lean ?? 0,
    rightLean: r?.lean ?? 0,
    row,
  };
}

/** The blank's columns [left, right) on row `y`. */
export function columnsAt(c: PortraitColumns, y: number): { left: number; right: number } {
  return { left: Math.ceil(c.left + c.leftLean * (y - c.row)), right: Math.ceil(c.right + c.rightLean * (y - c.row)) };
}

/**
 * A row off the card: this share of its pixels dark or more, across the blank and DESK_REACH of its
 * width beyond it each side (the desk beyond the card's edge; a loose portrait's shoulders fill the
 * blank but end at the portrait's edges).
 */
const DESK_SHARE = 0.9;
const DESK_REACH = 0.25;

/**
 * The row from which the rows judged run off the card: a large face on a small card, its shoulders
 * reaching past the card's bottom edge, had the desk in every column of the rows judged, and no gap
 * was found (check set eleventh/x084: both dates beside the portrait painted out, in review as
 * unreadable). Rows dark across the blank's whole width and beyond, at the bottom, are the desk: a
 * portrait's dark coat does not reach over the print beside it.
 */
function offTheCardFrom(page: GreyPage, blankLeft: number, blankRight: number, top: number, bottom: number): number {
  if (bottom - top < 8 || blankRight - blankLeft < 8) return bottom;
  const reach = Math.round(DESK_REACH * (blankRight - blankLeft));
  const [left, right] = [Math.max(0, blankLeft - reach), Math.min(page.width, blankRight + reach)];
  const hist = new Uint32Array(256);
  for (let y = top; y < bottom; y++) for (let x = left; x < right; x++) hist[page.pixels[y * page.width + x]!]!++;
  const dark = histogramPercentile(hist, (bottom - top) * (right - left), PAPER_PERCENTILE) - INK_UNDER_PAPER;
  const offCard = (y: number) => {
    let n = 0;
    for (let x = left; x < right; x++) if (page.pixels[y * page.width + x]! < dark) n++;
    return n >= DESK_SHARE * (right - left);
  };
  let end = bottom;
  while (end > top && offCard(end - 1)) end--;
  return end;
}
