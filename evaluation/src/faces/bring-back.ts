/**
 * Brings the manifest's photos back into PHOTOS_DIR and checks each one's sha256. A photo comes
 * from a local mirror of its repository when one is given (`--mirror owner/name=/path/to/git-dir`,
 * read with `git show commit:path`), else from GitHub's raw file URL for that commit.
 * Usage: node dist/faces/bring-back.js [--mirror repo=dir ...]
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { loadManifest, PHOTOS_DIR, photoFile, type Photo } from './manifest.js';

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export const rawUrl = (p: Photo) =>
  `https://raw.githubusercontent.com/${p.repo}/${p.commit}/${p.path.split('/').map(encodeURIComponent).join('/')}`;

async function fetchPhoto(p: Photo, mirrors: Map<string, string>): Promise<Buffer> {
  const mirror = mirrors.get(p.repo);
  if (mirror)
    return execFileSync('git', ['--git-dir', mirror, 'show', `${p.commit}:${p.path}`], {
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  const res = await fetch(rawUrl(p));
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

export function parseMirrors(args: string[]): Map<string, string> {
  const mirrors = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '--mirror') continue;
    const [repo, dir] = (args[++i] ?? '').split('=');
    if (!repo || !dir) throw new Error('--mirror wants owner/name=/path/to/git-dir');
    mirrors.set(repo, dir);
  }
  return mirrors;
}

async function main(): Promise<void> {
  const mirrors = parseMirrors(process.argv.slice(2));
  fs.mkdirSync(PHOTOS_DIR, { recursive: true });
  let ok = 0;
  const failed: string[] = [];
  for (const p of loadManifest().photos) {
    const file = photoFile(p);
    try {
      if (fs.existsSync(file) && sha256(fs.readFileSync(file)) === p.sha256) {
        ok++;
        continue;
      }
      const body = await fetchPhoto(p, mirrors);
      if (sha256(body) !== p.sha256) throw new Error('sha256 differs');
      fs.writeFileSync(file, body);
      ok++;
    } catch (err) {
      failed.push(`${p.id}: ${(err as Error).message}`);
    }
  }
  console.log(`${ok} photos in ${PHOTOS_DIR}; ${failed.length} failed`);
  for (const f of failed) console.log(`  ${f}`);
  if (failed.length) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
