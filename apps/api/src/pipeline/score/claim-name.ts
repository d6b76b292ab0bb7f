import type { DocumentEvidence } from '../evidence/fuse.js';
import { POLICY } from '../decide/policy.js';
import { NAME_SCORES, nameFloorInText, nameInTextScore, nameMatchScore, normalizeName, readAsTyped, type DocumentName } from './name-match.js';
import { SCORE_TUNING } from './score-tuning.js';

/**
 * `name_match`: the typed name against the name the document supports, once the fields are fused.
 *
 * - A fused name (a zone's, or a print's by its labels) is compared part by part
 *   (`nameMatchScore`). A word read in a way the recogniser is known to misread the typed one
 *   (`readAsTyped`) counts as that word, at `SCORE_TUNING.misreadName` (a pass, not a certainty).
 * - Where that leaves the name in doubt, the typed name found in the document's printed text (not by
 *   labels) may lift the score, never past the review line: a text cannot tell a surname from a
 *   given name.
 * - Without a fused name, the printed text is all there is: the typed name's words found in it
 *   score as `nameInTextScore` says, and a word of it printed whole keeps the score off the reject
 *   line (`nameFloorInText`): the rest is unread, not mismatched.
 */
export function claimNameScore(typed: string, evidence: DocumentEvidence): number {
  const { surname, givenNames } = evidence.fields;
  const unsure = unsureWords(evidence);
  const texts = evidence.printed;
  const inText = () => Math.max(0, ...texts.map((t) => nameInTextScore(typed, t.text, unsure)));
  if (surname.value === null) return nameFloorInText(typed, inText(), texts, POLICY.nameMatch.reject);
  const name: DocumentName = {
    surname: surname.value,
    givenNames: givenNames.value ?? '',
    truncated: evidence.zone?.nameTruncated === true && surname.sources.some((s) => s.kind === 'zone'),
    unsureWords: unsure,
  };
  const byFields = misreadTolerantScore(typed, name, [...unsure]);
  if (byFields >= POLICY.nameMatch.review) return byFields;
  return Math.max(byFields, Math.min(inText(), SCORE_TUNING.textOnlyNameMax));
}

/** The name score, a known misreading of the typed name taken as it (`readAsTyped`) at `misreadName` at most. */
export function misreadTolerantScore(typed: string, doc: DocumentName, unsure: readonly string[] = []): number {
  const plain = nameMatchScore(typed, doc);
  if (plain >= NAME_SCORES.exact) return plain;
  const asTyped = {
    ...doc,
    surname: readAsTyped(typed, doc.surname, unsure),
    givenNames: readAsTyped(typed, doc.givenNames, unsure),
  };
  if (asTyped.surname === doc.surname && asTyped.givenNames === doc.givenNames) return plain;
  return Math.max(plain, Math.min(SCORE_TUNING.misreadName, nameMatchScore(typed, asTyped)));
}

/** The words the recogniser was unsure of in any printed reading, normalised as names are. */
function unsureWords(evidence: DocumentEvidence): ReadonlySet<string> {
  return new Set(evidence.printed.flatMap((p) => p.unsureWords.flatMap((w) => normalizeName(w).split(' '))));
}
