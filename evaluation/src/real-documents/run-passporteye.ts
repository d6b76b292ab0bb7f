/**
 * Runs PassportEye (installed from its public repository's source into a Python environment,
 * PASSPORTEYE_PYTHON) on the same images through `passporteye/runner.py`, and turns what it read
 * into the fields we score. It reads zones only, and gives dates as YYMMDD: a birth year is
 * taken in this century unless that is in the future, an expiry year 70-99 in the last century
 * (the same reading a user of the library would have to write).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RealDocumentCase } from './manifest.js';
import { imagePath } from './images.js';
import type { ReaderResult } from './score.js';

const PYTHON = process.env.PASSPORTEYE_PYTHON ?? '/work/eval-data/passporteye-venv/bin/python';
const HERE = fileURLToPath(new URL('.', import.meta.url));
// The runner and the pytesseract stand-in stay in src (not compiled); dist/real-documents -> src/real-documents.
const RUNNER_DIR = HERE.replace(/\/dist\/real-documents\/?$/, '/src/real-documents/') + 'passporteye/';

export interface PassportEyeZone {
  id: string;
  ms: number;
  found: boolean;
  mrz_type?: string | null;
  valid_score?: number | null;
  number?: string | null;
  date_of_birth?: string | null;
  expiration_date?: string | null;
  nationality?: string | null;
  names?: string | null;
  surname?: string | null;
}

function isoOf(yymmdd: string | null | undefined, kind: 'birth' | 'expiry', now = new Date()): string | null {
  if (!yymmdd || !/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const thisYear = now.getUTCFullYear();
  const century = kind === 'birth' ? (2000 + yy > thisYear ? 1900 : 2000) : yy >= 70 ? 1900 : 2000;
  const iso = `${century + yy}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

const clean = (s: string | null | undefined): string | null => {
  const v = (s ?? '').replace(/</g, ' ').replace(/\s+/g, ' ').trim();
  return v === '' ? null : v;
};

export function passportEyeResult(z: PassportEyeZone, now = new Date()): ReaderResult {
  if (!z.found) {
    return {
      id: z.id,
      fields: { fullName: null, documentNumber: null, dateOfBirth: null, expiryDate: null, nationality: null },
      unreadable: true,
      ms: z.ms,
    };
  }
  const name = [clean(z.names), clean(z.surname)].filter((x): x is string => x !== null).join(' ');
  return {
    id: z.id,
    fields: {
      fullName: name === '' ? null : name,
      documentNumber: clean(z.number)?.replace(/ /g, '') ?? null,
      dateOfBirth: isoOf(z.date_of_birth, 'birth', now),
      expiryDate: isoOf(z.expiration_date, 'expiry', now),
      nationality: clean(z.nationality),
    },
    unreadable: false,
    ms: z.ms,
    detail: { mrzType: z.mrz_type ?? null, validScore: z.valid_score ?? null },
  };
}

export async function runPassportEye(
  cases: readonly RealDocumentCase[],
  onResult: (r: ReaderResult) => void = () => {},
): Promise<Map<string, ReaderResult>> {
  const input = cases.map((c) => ({
    id: c.id,
    images: [c.images.front, c.images.back].filter((i) => i !== undefined).map((i) => imagePath(i)),
  }));
  const child = spawn(PYTHON, [RUNNER_DIR + 'runner.py'], {
    env: { ...process.env, PYTHONPATH: RUNNER_DIR + 'shim', OMP_THREAD_LIMIT: '1', PYTHONWARNINGS: 'ignore' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.end(JSON.stringify(input));
  const results = new Map<string, ReaderResult>();
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line === '') continue;
      const r = passportEyeResult(JSON.parse(line) as PassportEyeZone);
      results.set(r.id, r);
      onResult(r);
    }
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`PassportEye runner exited ${code} (PASSPORTEYE_PYTHON=${PYTHON})`);
  return results;
}
