/**
 * Where the set's images live (outside git: REAL_DOCS_DIR, default /work/eval-data/real-documents)
 * and how they come back from their sources: a local git snapshot of the source repository
 * (REAL_DOCS_MIRROR/<owner>+<name>/repo, as this workplace keeps them) or, with network, the
 * repository's raw file at the recorded commit. Every image is checked against its sha256.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceImage } from './manifest.js';

export const DATA_DIR = process.env.REAL_DOCS_DIR ?? '/work/eval-data/real-documents';
export const MIRROR_DIR = process.env.REAL_DOCS_MIRROR ?? '/work/.mirror';

export const imagePath = (img: SourceImage, dataDir = DATA_DIR): string => join(dataDir, 'images', img.file);

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export const rawUrl = (img: SourceImage): string =>
  `https://raw.githubusercontent.com/${img.repository}/${img.commit}/${img.path.split('/').map(encodeURIComponent).join('/')}`;

export type ImageSource = 'present' | 'mirror' | 'network';

function fromMirror(img: SourceImage, mirrorDir: string): Buffer | null {
  const gitDir = join(mirrorDir, img.repository.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) return null;
  try {
    return execFileSync('git', ['-C', gitDir, 'show', `${img.commit}:${img.path}`], {
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return null;
  }
}

async function fromNetwork(img: SourceImage): Promise<Buffer | null> {
  try {
    const res = await fetch(rawUrl(img), { signal: AbortSignal.timeout(30_000) });
    return res.ok ? Buffer.from(await res.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

/**
 * Makes sure an image is in place with its recorded bytes; says where it came from. Throws when
 * no source gives the recorded bytes (a source that moved on, or no network and no snapshot).
 */
export async function ensureImage(
  img: SourceImage,
  opts: { dataDir?: string; mirrorDir?: string; network?: boolean } = {},
): Promise<ImageSource> {
  const path = imagePath(img, opts.dataDir);
  if (existsSync(path) && sha256(readFileSync(path)) === img.sha256) return 'present';
  const tries: [ImageSource, () => Promise<Buffer | null>][] = [
    ['mirror', () => Promise.resolve(fromMirror(img, opts.mirrorDir ?? MIRROR_DIR))],
    ...(opts.network === false ? [] : [['network', () => fromNetwork(img)] as [ImageSource, () => Promise<Buffer | null>]]),
  ];
  for (const [source, get] of tries) {
    const bytes = await get();
    if (bytes && sha256(bytes) === img.sha256) {
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, bytes);
      return source;
    }
  }
  throw new Error(`${img.file}: not found with sha256 ${img.sha256} (${img.repository}@${img.commit.slice(0, 8)}:${img.path})`);
}

/** Reads an image already in place, checking its bytes. */
export function readImage(img: SourceImage, dataDir = DATA_DIR): Buffer {
  const bytes = readFileSync(imagePath(img, dataDir));
  if (sha256(bytes) !== img.sha256) throw new Error(`${img.file}: sha256 differs from the manifest's; run real-docs:fetch`);
  return bytes;
}
