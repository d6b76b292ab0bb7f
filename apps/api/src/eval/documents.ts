import sharp from 'sharp';
import { FAST_PNG } from './capture.js';
import { td1, td2, td3, type MrzData } from './mrz-lines.js';
import { mrzLineSvg } from './mrz-svg.js';
import type { PersonName } from './names.js';
import type { Rng } from './random.js';

/**
 * Synthetic identity documents drawn as SVG (rendered by sharp's librsvg with Debian fonts) at the
 * size they will occupy in the photograph, so print stays crisp however large the frame. Every
 * name, number and date is invented; the portrait is one of the freely licensed fixture faces.
 */
export type DocKind = 'passport_td3' | 'id_card_td1' | 'id_card_printed' | 'driving_licence' | 'id_card_td2';

export const DOC_KINDS: readonly DocKind[] = ['passport_td3', 'id_card_td1', 'id_card_printed', 'driving_licence', 'id_card_td2'];

/** Printed text families (Debian fonts-dejavu-core, fonts-liberation); the MRZ is always OCR-B (fonts-ocr-b). */
export const DOC_FONTS = ['DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Liberation Serif', 'Liberation Sans Narrow'] as const;

export type DateStyle = 'dd mm yyyy' | 'dd.mm.yyyy' | 'dd MMM yyyy' | 'mm/dd/yyyy';

export interface DocumentData {
  kind: DocKind;
  layout: number;
  font: (typeof DOC_FONTS)[number];
  name: PersonName;
  /** Names printed in capitals (most documents) or as written. */
  upperCase: boolean;
  sex: 'F' | 'M';
  /** YYYY-MM-DD */
  birth: string;
  issue: string;
  expiry: string;
  number: string;
  /** ICAO alpha-3 */
  nationality: string;
  /** ISO alpha-2 of the issuing country (the init field `country`). */
  country: string;
  countryName: string;
  dateStyle: DateStyle;
  portrait: string;
  greyPortrait: boolean;
}

/** One rendered side: the picture and where its fields lie (fractions of width and height). */
export interface RenderedSide {
  png: Buffer;
  width: number;
  height: number;
  /** The box holding the name and other printed fields, for glare placed over them. */
  fields: { x: number; y: number; w: number; h: number };
}

/** Physical aspect ratios (ID-1 85.6 x 54 mm, ID-2 105 x 74 mm, ID-3 125 x 88 mm). */
export const ASPECT: Record<DocKind, number> = {
  passport_td3: 125 / 88,
  id_card_td1: 85.6 / 54,
  id_card_printed: 85.6 / 54,
  driving_licence: 85.6 / 54,
  id_card_td2: 105 / 74,
};

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
export function formatDate(iso: string, style: DateStyle): string {
  const [y, m, d] = iso.split('-') as [string, string, string];
  switch (style) {
    case 'dd mm yyyy':
      return `${d} ${m} ${y}`;
    case 'dd.mm.yyyy':
      return `${d}.${m}.${y}`;
    case 'dd MMM yyyy':
      return `${d} ${MONTHS[Number(m) - 1]} ${y}`;
    case 'mm/dd/yyyy':
      return `${m}/${d}/${y}`;
  }
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function mrzData(d: DocumentData, code: string): MrzData {
  return {
    code,
    state: d.nationality,
    surname: d.name.surname,
    given: d.name.given,
    number: d.number,
    nationality: d.nationality,
    birth: d.birth,
    sex: d.sex,
    expiry: d.expiry,
  };
}

/** Pale guilloche lines and a tint, the way security backgrounds look, faint enough to print over. */
function securityBackground(rng: Rng, W: number, H: number, hue: number): string {
  const lines: string[] = [];
  const n = rng.int(6, 14);
  for (let k = 0; k < n; k++) {
    const amp = rng.range(0.02, 0.08) * H;
    const period = rng.range(0.15, 0.5) * W;
    const y0 = rng.range(0.05, 0.95) * H;
    const phase = rng.range(0, 6.28);
    let d = '';
    for (let x = 0; x <= W; x += W / 120)
      d += `${d ? 'L' : 'M'}${x.toFixed(1)},${(y0 + amp * Math.sin((x / period) * 6.283 + phase)).toFixed(1)}`;
    lines.push(`<path d="${d}" fill="none" stroke="hsl(${hue},40%,72%)" stroke-width="${(W / 900).toFixed(2)}" opacity="0.55"/>`);
  }
  const cx = rng.range(0.45, 0.8) * W;
  const cy = rng.range(0.3, 0.6) * H;
  return `<defs><linearGradient id="tint" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},45%,94%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},40%,88%)"/></linearGradient></defs>
    <rect width="${W}" height="${H}" rx="${(W * 0.035).toFixed(1)}" fill="url(#tint)"/>
    <circle cx="${cx}" cy="${cy}" r="${0.22 * H}" fill="none" stroke="hsl(${hue},35%,80%)" stroke-width="${W / 300}" opacity="0.6"/>
    ${lines.join('')}`;
}

interface Field {
  label: string;
  value: string;
}

/** The printed fields of a document, labelled the way its layout labels them. */
function printedFields(d: DocumentData): { surname: Field; given: Field; others: Field[] } {
  const up = (s: string) => (d.upperCase ? s.toUpperCase() : s);
  const date = (iso: string) => formatDate(iso, d.dateStyle);
  const bilingual = d.layout % 2 === 1;
  const L = (en: string, other: string) => (bilingual ? `${other} / ${en}` : en);
  if (d.kind === 'driving_licence' && d.layout % 2 === 0) {
    // EU model licence: fields numbered, no words.
    return {
      surname: { label: '1.', value: up(d.name.surname) },
      given: { label: '2.', value: up(d.name.given.join(' ')) },
      others: [
        { label: '3.', value: `${date(d.birth)} ${d.countryName.toUpperCase()}` },
        { label: '4a.', value: date(d.issue) },
        { label: '4b.', value: date(d.expiry) },
        { label: '5.', value: d.number },
      ],
    };
  }
  if (d.kind === 'driving_licence') {
    // North-American style: short labels, dates month first.
    return {
      surname: { label: 'LN', value: up(d.name.surname) },
      given: { label: 'FN', value: up(d.name.given.join(' ')) },
      others: [
        { label: 'DL', value: d.number },
        { label: 'DOB', value: date(d.birth) },
        { label: 'EXP', value: date(d.expiry) },
        { label: 'ISS', value: date(d.issue) },
        { label: 'SEX', value: d.sex },
      ],
    };
  }
  const numberLabel = d.kind === 'passport_td3' ? L('Passport No.', 'Pasaporte N.º') : L('Document No.', 'N.º documento');
  return {
    surname: { label: L('Surname', d.layout % 4 === 1 ? 'Apellidos' : 'Nom'), value: up(d.name.surname) },
    given: { label: L('Given names', d.layout % 4 === 1 ? 'Nombre' : 'Prénoms'), value: up(d.name.given.join(' ')) },
    others: [
      { label: L('Nationality', 'Nationalité'), value: d.nationality },
      { label: L('Date of birth', 'Date de naissance'), value: date(d.birth) },
      { label: L('Sex', 'Sexe'), value: d.sex },
      { label: numberLabel, value: d.number },
      { label: L('Date of issue', 'Date de délivrance'), value: date(d.issue) },
      { label: L('Date of expiry', "Date d'expiration"), value: date(d.expiry) },
    ],
  };
}

const TITLES: Record<DocKind, string[]> = {
  passport_td3: ['PASSPORT', 'PASSEPORT · PASSPORT', 'PASAPORTE · PASSPORT'],
  id_card_td1: ['IDENTITY CARD', "CARTE D'IDENTITÉ · IDENTITY CARD", 'DOCUMENTO NACIONAL DE IDENTIDAD'],
  id_card_printed: ['IDENTITY CARD', 'NATIONAL ID', "CARTE NATIONALE D'IDENTITÉ"],
  driving_licence: ['DRIVING LICENCE', "DRIVER'S LICENSE", 'PERMIS DE CONDUIRE'],
  id_card_td2: ['IDENTITY CARD', 'RESIDENCE CARD', 'TITRE DE SÉJOUR'],
};

/**
 * The front (and, for a TD1 card, the back) at `width` pixels. Layout numbers vary the photo side,
 * the label language, the field arrangement and the colours.
 */
export async function renderDocument(
  rng: Rng,
  d: DocumentData,
  width: number,
): Promise<{ front: RenderedSide; back: RenderedSide | null }> {
  const W = Math.round(width);
  const H = Math.round(W / ASPECT[d.kind]);
  const u = W / 1000; // layout unit: a thousandth of the width
  const hue = rng.pick([210, 150, 20, 280, 340, 40]);
  const font = esc(d.font);
  const photoRight = d.kind !== 'passport_td3' && d.layout % 3 === 2;
  const mrz = d.kind === 'passport_td3' ? td3(mrzData(d, 'P<')) : d.kind === 'id_card_td2' ? td2(mrzData(d, 'ID')) : null;
  const mrzBand = mrz ? 0.24 : 0;
  const photoW = (d.kind === 'passport_td3' ? 0.27 : 0.28) * W;
  const photoH = photoW * 1.28;
  const photoX = photoRight ? W - photoW - 40 * u : 40 * u;
  const photoY = 0.17 * H;
  const fieldsX = photoRight ? 40 * u : photoX + photoW + 40 * u;
  const fieldsW = W - photoW - 120 * u;
  const f = printedFields(d);
  const rows: Field[] = [f.surname, f.given, ...f.others];
  const top = 0.16 * H;
  const bottom = H * (1 - mrzBand) - 0.04 * H;
  const numbered = d.kind === 'driving_licence' && d.layout % 2 === 0;
  const twoCols = d.layout % 2 === 0 && rows.length > 5 && !numbered;
  const perCol = twoCols ? Math.ceil((rows.length - 2) / 2) + 2 : rows.length;
  const rowH = (bottom - top) / perCol;
  const labelSize = Math.min(rowH * 0.3, 26 * u);
  const valueSize = Math.min(rowH * 0.48, 42 * u);
  const text: string[] = [];
  rows.forEach((r, i) => {
    // The names always take full rows; the rest may share two columns.
    const col = twoCols && i >= 2 ? (i - 2) % 2 : 0;
    const row = twoCols && i >= 2 ? 2 + Math.floor((i - 2) / 2) : i;
    const x = fieldsX + col * (fieldsW / 2);
    const y = top + row * rowH;
    if (numbered) {
      text.push(
        `<text x="${x}" y="${y + rowH * 0.62}" font-family="${font}" font-size="${valueSize * 0.8}" fill="#333">${esc(r.label)}</text>`,
      );
      text.push(
        `<text x="${x + 70 * u}" y="${y + rowH * 0.62}" font-family="${font}" font-size="${valueSize}" fill="#111">${esc(r.value)}</text>`,
      );
    } else {
      text.push(
        `<text x="${x}" y="${y + labelSize}" font-family="${font}" font-size="${labelSize}" fill="hsl(${hue},45%,30%)">${esc(r.label)}</text>`,
      );
      text.push(
        `<text x="${x}" y="${y + labelSize + valueSize * 1.05}" font-family="${font}" font-size="${valueSize}" fill="#111" ${d.layout % 3 === 1 ? 'font-weight="bold"' : ''}>${esc(r.value)}</text>`,
      );
    }
  });
  const title = rng.pick(TITLES[d.kind]);
  let mrzSvg = '';
  if (mrz) {
    const lineH = (mrzBand * H) / (mrz.length + 0.6);
    mrzSvg = mrz.map((line, i) => mrzLineSvg(line, 35 * u, H * (1 - mrzBand) + lineH * (i + 1), W - 70 * u, lineH * 0.78)).join('');
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    ${securityBackground(rng, W, H, hue)}
    <text x="${40 * u}" y="${0.1 * H}" font-family="${font}" font-size="${0.055 * H}" font-weight="bold" fill="hsl(${hue},55%,28%)">${esc(title)}</text>
    <text x="${W - 40 * u}" y="${0.1 * H}" text-anchor="end" font-family="${font}" font-size="${0.04 * H}" fill="hsl(${hue},55%,28%)">${esc(d.countryName.toUpperCase())}</text>
    <rect x="${photoX}" y="${photoY}" width="${photoW}" height="${photoH}" fill="#ccc"/>
    ${text.join('')}
    ${mrzSvg}
  </svg>`;
  let portrait = sharp(d.portrait).resize(Math.round(photoW), Math.round(photoH), { fit: 'cover', position: 'top' });
  if (d.greyPortrait) portrait = portrait.greyscale();
  // Rendered once, then composited (librsvg would otherwise draw the page again for every tile).
  const page = await sharp(Buffer.from(svg)).png(FAST_PNG).toBuffer();
  const png = await sharp(page)
    .composite([{ input: await portrait.png(FAST_PNG).toBuffer(), left: Math.round(photoX), top: Math.round(photoY) }])
    .png(FAST_PNG)
    .toBuffer();
  const front: RenderedSide = {
    png,
    width: W,
    height: H,
    fields: { x: fieldsX / W, y: top / H, w: fieldsW / W, h: (bottom - top) / H },
  };
  const back = d.kind === 'id_card_td1' ? await renderTd1Back(rng, d, W, H, hue) : null;
  return { front, back };
}

/** The back of a TD1 card: issuing details above, the three-line MRZ over the lower part. */
async function renderTd1Back(rng: Rng, d: DocumentData, W: number, H: number, hue: number): Promise<RenderedSide> {
  const u = W / 1000;
  const mrz = td1(mrzData(d, rng.pick(['ID', 'I<', 'IR'])));
  const font = esc(d.font);
  const band = 0.38;
  const lineH = (band * H) / (mrz.length + 0.5);
  const info = [
    `${d.layout % 2 ? 'Domicile / Address' : 'Address'}: ${rng.int(1, 120)} ${rng.pick(['Rue des Lilas', 'Calle Mayor', 'Hauptstraße', 'Storgata', 'Main Street'])}`,
    `${d.layout % 2 ? 'Autorité / Authority' : 'Authority'}: ${d.countryName.toUpperCase()} ${rng.pick(['PREFECTURE', 'POLICE', 'MUNICIPALITY'])}`,
    `${d.layout % 2 ? 'Lieu de naissance / Place of birth' : 'Place of birth'}: ${rng.pick(['LYON', 'BERGEN', 'SEVILLA', 'GRAZ', 'TURKU'])}`,
  ];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    ${securityBackground(rng, W, H, hue)}
    ${info.map((t, i) => `<text x="${40 * u}" y="${0.14 * H + i * 0.1 * H}" font-family="${font}" font-size="${0.045 * H}" fill="#222">${esc(t)}</text>`).join('')}
    <rect x="0" y="${H * (1 - band) - 0.02 * H}" width="${W}" height="${band * H + 0.02 * H}" fill="#fbfbf7" opacity="0.8"/>
    ${mrz.map((line, i) => mrzLineSvg(line, 35 * u, H * (1 - band) + lineH * (i + 0.95), W - 70 * u, lineH * 0.8)).join('')}
  </svg>`;
  return { png: await sharp(Buffer.from(svg)).png(FAST_PNG).toBuffer(), width: W, height: H, fields: { x: 0, y: 1 - band, w: 1, h: band } };
}
