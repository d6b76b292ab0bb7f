import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One person of the real-face set: photos of the same person share `person`. */
export interface Person {
  id: string;
  name: string;
  sex: 'F' | 'M';
  birthYear: number;
  source: string;
}

/** One photograph, named by where it can be fetched again: a public repository, a commit and a path. */
export interface Photo {
  id: string;
  person: string;
  repo: string;
  commit: string;
  path: string;
  sha256: string;
  bytes: number;
  ext: string;
  licence: string;
  /** Whether the licence is stated for this file by its source (false: stated for the collection only). */
  licenceVerified: boolean;
  /** Approximate year the photo was taken, where known. */
  year: number | null;
}

export interface Manifest {
  version: number;
  description: string;
  people: Person[];
  photos: Photo[];
}

/** The committed manifest (it sits beside this module's source; dist reads it from src). */
export const MANIFEST_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'faces', 'manifest.json');

/** Where the photos and everything made from them live: outside git, never committed. */
export const DATA_DIR = process.env.FACES_DATA_DIR ?? '/work/eval-data/faces';
export const PHOTOS_DIR = path.join(DATA_DIR, 'photos');

export function loadManifest(file = MANIFEST_PATH): Manifest {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

export const photoFile = (p: Photo) => path.join(PHOTOS_DIR, `${p.id}.${p.ext}`);
