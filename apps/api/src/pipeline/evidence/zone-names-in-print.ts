import { hasZoneFillers } from '../read/zone/zone-lines.js';
import { normalizeName } from '../score/name-match.js';
import type { Candidate, Source } from './candidates.js';
import { editDistance, nameKey } from './field-keys.js';
import { FUSE_TUNING } from './fuse-tuning.js';

/** A page of printed text as the fusion sees it: where it was read, its text, its confidence. */
export interface PrintedText {
  source: Source;
  text: string;
  confidence: number;
}

/**
 * A zone's names as a page prints them where no label of that page was read for them: of the
 * page's runs of as many words as the zone's name has, the nearest to it within a misreading (at
 * most 3 letters, under a quarter, as a zone writes names), each proposed as that page's reading of
 * the name. The zone's name field has no check digit: a print that shows nearly the same name
 * corroborates it, and its letters (read by another recogniser, in a larger face) often show where
 * the zone misread (CH9JE, OLJIVIA); a print that shows another name proposes nothing. The zone's
 * own lines, read again on the page, are left out.
 */
export function zoneNamesInPrint(candidates: readonly Candidate[], pages: readonly PrintedText[]): Candidate[] {
  const found: Candidate[] = [];
  for (const zone of candidates.filter((c) => c.source.kind === 'zone' && (c.field === 'surname' || c.field === 'givenNames'))) {
    const target = nameKey(zone.value);
    const count = zone.value.split(' ').length;
    if (target.length < 4) continue;
    for (const page of pages) {
      const labelled = candidates.some((c) => c.field === zone.field && c.source === page.source);
      if (labelled) continue;
      const words = normalizeName(
        page.text
          .split('\n')
          .filter((l) => !hasZoneFillers(l))
          .join('\n'),
      )
        .split(' ')
        .filter((w) => w.length >= 2);
      const allowed = Math.min(3, Math.floor(target.length / 4));
      let best: { run: string; distance: number } | null = null;
      for (let i = 0; i + count <= words.length; i++) {
        const run = words.slice(i, i + count).join(' ');
        const d = editDistance(target, nameKey(run), allowed);
        if (d <= allowed && (!best || d < best.distance)) best = { run, distance: d };
      }
      if (best)
        found.push({
          field: zone.field,
          value: best.run,
          confidence: FUSE_TUNING.zoneNameInPrint * (0.6 + 0.4 * page.confidence),
          checked: null,
          source: page.source,
        });
    }
  }
  return found;
}
