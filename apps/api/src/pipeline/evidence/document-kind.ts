import type { DocumentType } from '@service/contract';
import { normalizeName } from '../score/name-match.js';

/**
 * A driving licence, by the request's document type or by its printed title: it prints no
 * nationality (the EU model's fields 1-9, an AAMVA licence's), so none is expected of it.
 */
export function isDrivingLicence(documentType: DocumentType | null, texts: readonly string[]): boolean {
  return (
    documentType === 'drivers_license' ||
    texts.some((t) =>
      /\b(DRIVING LICEN[CS]E|DRIVER ?S? LICEN[CS]E|PERMIS DE CONDUIRE|FUHRERSCHEIN|PERMISO DE CONDUCIR|PATENTE DI GUIDA|PRAWO JAZDY|RIJBEWIJS|CARTA DE CONDUCAO|KORKORT|AJOKORTTI)\b/.test(
        normalizeName(t),
      ),
    )
  );
}
