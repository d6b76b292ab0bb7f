import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { composeTd3 } from '../pipeline/mrz-compose.js';
import { mrzLineSvg } from './mrz-svg.js';

/** Public-domain and CC0 face photographs, with their provenance (fixtures/faces/PROVENANCE.md). */
export const FACES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'faces');
export const face = (file: 'astronaut.png' | 'grace_hopper.jpg' | 'camera.png') => path.join(FACES_DIR, file);

/** A sharp, document-like test picture (text and edges) rendered with sharp; no real person. */
export async function textCard(width = 1280, height = 800): Promise<Buffer> {
  const lines = Array.from(
    { length: 8 },
    (_, i) =>
      `<text x="60" y="${120 + i * 80}" font-family="DejaVu Sans" font-size="44" fill="#111">LINE ${i} SAMPLE TEXT 0123456789</text>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#e8eef7"/><rect x="20" y="20" width="${width - 40}" height="${height - 40}" fill="none" stroke="#24406b" stroke-width="8"/>${lines}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer();
}

export interface PassportPage {
  surname: string;
  givenNames: string;
  documentNumber: string;
  nationality: string;
  dateOfBirth: string;
  expiryDate: string;
  mrz: readonly string[];
  portrait: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A synthetic passport data page: printed fields in DejaVu Sans, the MRZ in OCR-B (Debian fonts-ocr-b). */
export async function passportPage(p: PassportPage): Promise<Buffer> {
  const W = 1250;
  const H = 880;
  const field = (label: string, value: string, y: number) =>
    `<text x="360" y="${y}" font-family="DejaVu Sans" font-size="22" fill="#445">${esc(label)}</text><text x="360" y="${y + 36}" font-family="DejaVu Sans" font-size="32" fill="#111">${esc(value)}</text>`;
  const mrz = p.mrz.map((line, i) => mrzLineSvg(line, 40, H - 48 - (p.mrz.length - 1 - i) * 62, W - 80, 34)).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <rect width="100%" height="100%" fill="#f3f1e6"/>
    <text x="40" y="60" font-family="DejaVu Sans" font-size="34" font-weight="bold" fill="#24406b">PASSPORT · PASAPORTE</text>
    ${field('Surname / Apellidos', p.surname, 120)}
    ${field('Given names / Nombre', p.givenNames, 210)}
    ${field('Nationality', p.nationality, 300)}
    ${field('Date of birth', p.dateOfBirth, 390)}
    ${field('Passport No.', p.documentNumber, 480)}
    ${field('Date of expiry', p.expiryDate, 570)}
    ${mrz}
  </svg>`;
  const portrait = await sharp(p.portrait).resize(280, 360, { fit: 'cover', position: 'top' }).toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: portrait, left: 40, top: 100 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Who a specimen passport is issued to: printed names, their MRZ forms, YYMMDD birth date. */
export interface PassportHolder {
  surname: string;
  givenNames: string;
  mrzSurname: string;
  mrzGiven: string;
  state: string;
  number: string;
  birth: string;
  portrait: string;
}

/** A TD3 passport data page for `p`, its MRZ composed with check digits, expiring on `expiry` (YYMMDD). */
export async function specimenPassport(p: PassportHolder, expiry = '310514'): Promise<Buffer> {
  const mrz = composeTd3({
    issuingState: p.state,
    surname: p.mrzSurname,
    givenNames: p.mrzGiven,
    documentNumber: p.number,
    nationality: p.state,
    birthDate: p.birth,
    sex: 'F',
    expiryDate: expiry,
  });
  const printed = (d: string) => `${d.slice(4)} ${d.slice(2, 4)} ${Number(d.slice(0, 2)) > 40 ? '19' : '20'}${d.slice(0, 2)}`;
  return passportPage({
    surname: p.surname,
    givenNames: p.givenNames,
    documentNumber: p.number,
    nationality: p.state,
    dateOfBirth: printed(p.birth),
    expiryDate: printed(expiry),
    mrz,
    portrait: p.portrait,
  });
}
