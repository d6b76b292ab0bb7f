import type { Rng } from './random.js';

/**
 * Invented people for the evaluation set: given names and family names as a national document
 * prints them (accents, particles, hyphens, apostrophes, double surnames), their ICAO 9303 form
 * for the MRZ, and the ways a genuine user types them. No name belongs to anyone in particular.
 */
export interface PersonName {
  /** Family name(s) as printed, e.g. "Ødegård", "García López", "van der Berg". */
  surname: string;
  /** Given names as printed, in order. */
  given: string[];
}

const GIVEN = [
  'Ingrid',
  'Sofie',
  'Chloé',
  'Anaïs',
  'Ana',
  'Lucía',
  'María',
  'José',
  'Zoë',
  'Brünhilde',
  'Joséphine',
  'Siobhán',
  'Åsa',
  'Øydis',
  'Émilie',
  'Aurélie',
  'Hélène',
  'Małgorzata',
  'Łucja',
  'Jürgen',
  'Björk',
  'Søren',
  'François',
  'Noémie',
  'Fatima',
  'Aïcha',
  'Leïla',
  'Mónica',
  'Inés',
  'Ángela',
  'Begoña',
  'Dagný',
  'Þóra',
  'Agnieszka',
  'Zuzana',
  'Kateřina',
  'Renée',
  'Marie',
  'Anne',
  'Jean',
  'Eva',
  'Nora',
  'Grace',
  'Eileen',
  'Mary',
  'Elizabeth',
  'Ayşe',
  'Gülşen',
  'Mei',
  'Linh',
  'Thảo',
  'Oona',
  'Päivi',
  'Mette',
  'Kirsten',
  'Ólöf',
  'Ilse',
  'Greta',
  'Beatriz',
  'Conceição',
  'João',
  'Anne-Marie',
  'Marie-Claire',
] as const;

const SURNAMES = [
  'Ødegård',
  'Marchand',
  'Müller',
  'Åberg',
  'Søndergaard',
  'Jäger',
  'Weiß',
  'Núñez',
  'Muñoz',
  'Ibáñez',
  'García López',
  'Martínez García',
  'Fernández de Córdoba',
  'van der Berg',
  'van Dijk',
  'de la Cruz',
  'de Souza',
  'dos Santos',
  'al-Rashid',
  'Al-Hassan',
  'El Amrani',
  'Smith-Jones',
  'Lefèvre-Durand',
  "O'Connor",
  "D'Angelo",
  'Ó Briain',
  'Mac Giolla',
  'Çelik',
  'Öztürk',
  'Łukasiewicz',
  'Wójcik',
  'Dvořák',
  'Nováková',
  'Horváth',
  'Nguyễn',
  'Trần',
  'Þórsdóttir',
  'Guðmundsdóttir',
  'Kovačević',
  'Haddad',
  'Schröder',
  'Björklund',
  'Lindqvist',
  'Kärkkäinen',
  'Hopper',
  'Collins',
  'Dupont',
  'Rossi',
  'Bianchi',
  'Papadopoulou',
  'Ferreira',
  'Gonçalves',
  'Da Silva',
  'von Bülow',
  'ten Brink',
] as const;

/** ICAO 9303 Part 3 transliteration of Latin letters with diacritics (Ø -> OE, Å -> AA, Ü -> UE...). */
const ICAO: Record<string, string> = {
  Ä: 'AE',
  Å: 'AA',
  Æ: 'AE',
  Ö: 'OE',
  Ø: 'OE',
  Ü: 'UE',
  ß: 'SS',
  ẞ: 'SS',
  Œ: 'OE',
  Þ: 'TH',
  Ð: 'D',
  Đ: 'D',
  Ł: 'L',
  Ħ: 'H',
  Ŀ: 'L',
  Ŋ: 'N',
  Ñ: 'N',
  IJ: 'IJ',
};

const stripMarks = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '');

/** The name in MRZ letters (A-Z, space and hyphen kept for `mrzName` to turn into fillers; apostrophes dropped). */
export function icaoName(s: string): string {
  const upper = s.toUpperCase();
  let out = '';
  for (const ch of upper) out += ICAO[ch] ?? ch;
  return stripMarks(out)
    .replace(/['’]/g, '')
    .replace(/[^A-Z -]/g, '');
}

/** What most people type when their keyboard or habit drops accents: Ø -> O, Å -> A, ß -> ss. */
export function asciiFold(s: string): string {
  return stripMarks(
    s
      .replace(/Ø/g, 'O')
      .replace(/ø/g, 'o')
      .replace(/ß/g, 'ss')
      .replace(/Ł/g, 'L')
      .replace(/ł/g, 'l')
      .replace(/Þ/g, 'Th')
      .replace(/þ/g, 'th')
      .replace(/Đ|Ð/g, 'D')
      .replace(/đ|ð/g, 'd')
      .replace(/Æ/g, 'Ae')
      .replace(/æ/g, 'ae'),
  );
}

/** ICAO spelling in ordinary case, as a user who copies the MRZ writes it ("Oedegaard"). */
function icaoTitle(s: string): string {
  return s
    .split(/(\s+|-)/)
    .map((part) => (/^\s+$|^-$/.test(part) ? part : titleCase(icaoName(part))))
    .join('');
}

const titleCase = (w: string) => (w ? w[0]!.toUpperCase() + w.slice(1).toLowerCase() : w);

export function randomName(rng: Rng): PersonName {
  const n = rng.weighted([
    [1, 4],
    [2, 5],
    [3, 1],
  ] as const);
  const given: string[] = [];
  while (given.length < n) {
    const g = rng.pick(GIVEN);
    if (!given.includes(g)) given.push(g);
  }
  return { surname: rng.pick(SURNAMES), given };
}

/** Another family name, clearly not a spelling of this one (shares no word with it). */
export function otherSurname(rng: Rng, surname: string): string {
  const words = new Set(icaoName(surname).split(/[ -]+/));
  for (;;) {
    const s = rng.pick(SURNAMES);
    if (
      !icaoName(s)
        .split(/[ -]+/)
        .some((w) => words.has(w))
    )
      return s;
  }
}

/** Other given names: no given name in common. */
export function otherGiven(rng: Rng, given: string[]): string[] {
  const taken = new Set(given.map((g) => icaoName(g)));
  const out: string[] = [];
  const n = rng.int(1, 2);
  while (out.length < n) {
    const g = rng.pick(GIVEN);
    if (!taken.has(icaoName(g)) && !out.includes(g)) out.push(g);
  }
  return out;
}

export type TypedVariant =
  | 'as_printed'
  | 'no_accents'
  | 'icao_transliterated'
  | 'lowercase'
  | 'uppercase'
  | 'middle_omitted'
  | 'middle_initial'
  | 'surname_first'
  | 'surname_first_comma'
  | 'hyphen_as_space';

/** The ways genuine users type their own name (weights: how often each is drawn). */
export const TYPED_VARIANTS: readonly (readonly [TypedVariant, number])[] = [
  ['as_printed', 4],
  ['no_accents', 3],
  ['icao_transliterated', 1],
  ['lowercase', 1],
  ['uppercase', 1],
  ['middle_omitted', 2],
  ['middle_initial', 1],
  ['surname_first', 1],
  ['surname_first_comma', 1],
  ['hyphen_as_space', 1],
];

/** The name as a genuine user types it. */
export function typedName(rng: Rng, name: PersonName, variant: TypedVariant): string {
  const given = name.given;
  const full = (g: string[], s = name.surname) => `${g.join(' ')} ${s}`;
  switch (variant) {
    case 'as_printed':
      return full(given);
    case 'no_accents':
      return asciiFold(full(given));
    case 'icao_transliterated':
      return icaoTitle(full(given));
    case 'lowercase':
      return (rng.chance(0.5) ? asciiFold(full(given)) : full(given)).toLowerCase();
    case 'uppercase':
      return full(given).toUpperCase();
    case 'middle_omitted':
      return full(given.slice(0, 1));
    case 'middle_initial':
      return given.length > 1 ? full([given[0]!, ...given.slice(1).map((g) => `${g[0]}.`)]) : full(given);
    case 'surname_first':
      return `${name.surname} ${given.join(' ')}`;
    case 'surname_first_comma':
      return `${name.surname}, ${given.join(' ')}`;
    case 'hyphen_as_space':
      return full(given).replace(/-/g, ' ');
  }
}
