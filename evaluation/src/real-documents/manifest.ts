/**
 * The real-document manifest: each case's images (where they come from, their sha256 and their
 * repository's licence), its layout and capture, its truth read by eye, and its split. Loading
 * validates the shape, then the truth against the zone the case transcribes (check digits and
 * fields), and the split against the rule that fixed it (`split.ts`).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { DOCUMENT_TYPES } from '@service/contract';
import { FIELDS, LAYOUTS, SPLITS, type Field } from './layouts.js';
import { hasZone, zoneFields, type CheckName } from './zone-fields.js';
import { splitOf } from './split.js';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const sourceImageSchema = z.object({
  file: z.string().regex(/^[a-z0-9-]+\.(jpg|jpeg|png)$/),
  repository: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  path: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().positive(),
  widthPx: z.number().int().positive(),
  heightPx: z.number().int().positive(),
  repositoryLicence: z.string().min(1),
});

const truthSchema = z.object({
  fullName: z.string().min(1),
  documentNumber: z.string().min(1),
  dateOfBirth: isoDate,
  expiryDate: isoDate,
  nationality: z
    .string()
    .regex(/^[A-Z]{1,3}$/)
    .nullable(),
});

const caseSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  group: z.string().min(1),
  split: z.enum(SPLITS),
  layout: z.enum(LAYOUTS),
  country: z.string().regex(/^[A-Z]{1,3}$/),
  documentType: z.enum(DOCUMENT_TYPES),
  side: z.string().min(1),
  capture: z.enum(['scan', 'photo', 'screenshot', 'render', 'illustration']),
  legible: z.boolean(),
  truth: truthSchema,
  accept: z.partialRecord(z.enum(FIELDS), z.array(z.string().min(1))).optional(),
  mrz: z.array(z.string()).optional(),
  badCheckDigits: z.array(z.enum(['documentNumber', 'dateOfBirth', 'expiryDate', 'personalNumber', 'composite'])).optional(),
  zoneDiffersFromPrint: z.boolean().optional(),
  printed: z.record(z.string(), z.string()).optional(),
  notes: z.string().optional(),
  images: z.object({ front: sourceImageSchema, back: sourceImageSchema.optional() }),
});

const manifestSchema = z.object({
  description: z.string(),
  schemaVersion: z.literal(1),
  cases: z.array(caseSchema).min(1),
});

export type RealDocumentCase = z.infer<typeof caseSchema>;
export type SourceImage = z.infer<typeof sourceImageSchema>;
export type Manifest = z.infer<typeof manifestSchema>;

export const MANIFEST_PATH = new URL('./manifest.json', import.meta.url);

/** YYMMDD of an ISO date, as a zone prints it. */
const yymmdd = (iso: string): string => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);

/** The truth's values of a field: the one read, and the others the document also prints. */
export function acceptedValues(c: RealDocumentCase, field: Field): string[] {
  const truth = c.truth[field];
  return [...(truth === null ? [] : [truth]), ...(c.accept?.[field] ?? [])];
}

/** Every way a case contradicts its zone or itself; empty when it holds. */
export function caseProblems(c: RealDocumentCase): string[] {
  const problems: string[] = [];
  if (hasZone(c.layout) !== (c.mrz !== undefined)) {
    problems.push(hasZone(c.layout) ? 'a zone layout without its zone lines' : `zone lines on a ${c.layout} case`);
  }
  if (c.mrz && hasZone(c.layout)) {
    let zone;
    try {
      zone = zoneFields(c.layout, c.mrz);
    } catch (e) {
      return [...problems, (e as Error).message];
    }
    const declared = new Set<CheckName>(c.badCheckDigits ?? []);
    for (const { name, valid } of zone.checks) {
      if (!valid && !declared.has(name)) problems.push(`check digit of ${name} fails and is not declared bad`);
      if (valid && declared.has(name)) problems.push(`check digit of ${name} holds but is declared bad`);
    }
    for (const name of declared) {
      if (!zone.checks.some((ch) => ch.name === name)) problems.push(`declared bad ${name} has no check digit here`);
    }
    if (!c.zoneDiffersFromPrint) {
      const numbers = acceptedValues(c, 'documentNumber');
      if (!numbers.includes(zone.documentNumber)) problems.push(`zone number ${zone.documentNumber} is not the truth's`);
      if (!acceptedValues(c, 'dateOfBirth').some((d) => yymmdd(d) === zone.dateOfBirth)) {
        problems.push(`zone birth date ${zone.dateOfBirth} is not the truth's`);
      }
      if (zone.expiryDate !== null && !acceptedValues(c, 'expiryDate').some((d) => yymmdd(d) === zone.expiryDate)) {
        problems.push(`zone expiry ${zone.expiryDate} is not the truth's`);
      }
      if (zone.nationality !== null && zone.nationality !== c.truth.nationality) {
        problems.push(`zone nationality ${zone.nationality} is not the truth's`);
      }
    }
  }
  for (const field of FIELDS) {
    for (const alt of c.accept?.[field] ?? []) {
      if (alt === c.truth[field]) problems.push(`accept.${field} repeats the truth`);
    }
  }
  return problems;
}

/** Problems of the whole manifest: each case's, duplicate ids, and splits the rule does not give. */
export function manifestProblems(m: Manifest): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const c of m.cases) {
    if (ids.has(c.id)) problems.push(`${c.id}: duplicate id`);
    ids.add(c.id);
    for (const p of caseProblems(c)) problems.push(`${c.id}: ${p}`);
  }
  const groupLayouts = new Map<string, Set<string>>();
  for (const c of m.cases) groupLayouts.set(c.group, (groupLayouts.get(c.group) ?? new Set()).add(c.layout));
  for (const [group, layouts] of groupLayouts) {
    if (layouts.size > 1) problems.push(`group ${group} spans layouts ${[...layouts].join(', ')}`);
  }
  const splits = splitOf(m.cases);
  for (const c of m.cases) {
    if (splits.get(c.group) !== c.split) problems.push(`${c.id}: split ${c.split}, the rule gives ${splits.get(c.group)}`);
  }
  return problems;
}

/** Parses and validates a manifest; throws with every problem found. */
export function parseManifest(json: unknown): Manifest {
  const m = manifestSchema.parse(json);
  const problems = manifestProblems(m);
  if (problems.length > 0) throw new Error(`manifest invalid:\n  ${problems.join('\n  ')}`);
  return m;
}

export function loadManifest(path: URL | string = MANIFEST_PATH): Manifest {
  return parseManifest(JSON.parse(readFileSync(path, 'utf8')) as unknown);
}
