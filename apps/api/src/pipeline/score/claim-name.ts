import type { DocumentEvidence } from '../evidence/fuse.js';
import { POLICY } from '../decide/policy.js';
import {
  NAME_SCORES,
  nameFloorInText,
  nameInTextScore,
  nameMatchScore,
  normalizeName,
  readAsTyped,
  type DocumentName,
} from './name-match.js';
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
  // A part the readings did not settle (reported null) is compared as each reading saw it: the
  // document does not say which it is, so the claim may agree with any, never past `unsettledNameMax`.
  const surnames = surname.value !== null ? [surname.value] : readingsOf(evidence, 'surname');
  const givens = givenNames.value !== null ? [givenNames.value] : ['', ...readingsOf(evidence, 'givenNames')];
  if (!surnames.length) return nameFloorInText(typed, inText(), texts, POLICY.nameMatch.reject);
  const truncated = evidence.zone?.nameTruncated === true && surname.sources.some((s) => s.kind === 'zone');
  let byFields = 0;
  for (const sn of surnames)
    for (const given of givens) {
      const score = misreadTolerantScore(typed, { surname: sn, givenNames: given, truncated, unsureWords: unsure }, [...unsure]);
      const settledParts = sn === surname.value && (given === givenNames.value || given === '');
      byFields = Math.max(byFields, settledParts ? score : Math.min(score, SCORE_TUNING.unsettledNameMax));
    }
  if (byFields >= POLICY.nameMatch.review) return byFields;
  return Math.max(byFields, Math.min(inText(), SCORE_TUNING.textOnlyNameMax));
}

/** Every reading's value of a name part, as read. */
function readingsOf(evidence: DocumentEvidence, field: 'givenNames' | 'surname'): string[] {
  const proposals = [...(evidence.zone?.proposals ?? []), ...evidence.printed.flatMap((p) => p.proposals)];
  return [...new Set(proposals.filter((p) => p.field === field).map((p) => p.value))];
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
