import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const exec = promisify(execFile);

export interface PublishablePackage {
  name: string;
  dir: string;
  manifest: Record<string, unknown> & { name: string; version: string; files?: string[] };
}

/** Every workspace package under packages/ that is not private: what we publish. */
export function publishablePackages(): PublishablePackage[] {
  const base = path.join(ROOT, 'packages');
  return fs
    .readdirSync(base)
    .map((d) => path.join(base, d))
    .filter((dir) => fs.existsSync(path.join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({ name: manifest.name, dir, manifest }));
}

/** `npm pack` (its prepack builds the package) into `dest`; returns the tarball's path. */
export async function pack(pkg: PublishablePackage, dest: string): Promise<string> {
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', dest], { cwd: pkg.dir, maxBuffer: 64 * 1024 * 1024 });
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  return path.join(dest, info!.filename);
}

/** The file list of a tarball. */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await exec('tar', ['-tzf', tarball]);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ''));
}

export async function run(cmd: string, args: string[], cwd: string, timeoutMs = 180_000) {
  try {
    const r = await exec(cmd, args, { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CI: 'true' } });
    return { code: 0, out: `${r.stdout}${r.stderr}` };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string; message: string };
    return { code: typeof e.code === 'number' ? e.code : 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}${e.message}` };
  }
}
