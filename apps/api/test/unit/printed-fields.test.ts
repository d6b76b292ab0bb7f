import { describe, expect, it } from 'vitest';
import { printedFields } from '../../src/pipeline/read/printed/printed-fields.js';

describe('printed fields by their labels', () => {
  it.each([
    [
      'label above value, bilingual labels',
      'IDENTITY CARD\nApellidos / Surname\nMARTÍNEZ GARCÍA\nNombre / Given names\nANA LUCÍA\nNacionalidad / Nationality   Fecha / Date of birth\nESP   28 02 1990\n',
      { surname: 'MARTINEZ GARCIA', givenNames: 'ANA LUCIA', nationality: 'ESP' },
    ],
    [
      'French labels',
      "CARTE NATIONALE D'IDENTITÉ\nNom / Surname\nØdegård\nPrénoms / Given names\nIngrid Sofie\nNationalité / Nationality\nNOR\n",
      { surname: 'ODEGARD', givenNames: 'INGRID SOFIE', nationality: 'NOR' },
    ],
    [
      "a one-letter part of the surname (Irish Ó, the elided D') is kept; a stray letter before the name is not",
      'NATIONAL ID\nApellidos © Surname\nO BRIAIN\nNombre / Given names\ni ANA\nNationality\nIRL\n',
      { surname: 'O BRIAIN', givenNames: 'ANA', nationality: 'IRL' },
    ],
    [
      'an apostrophe read as a space',
      "IDENTITY CARD ITALY\nSurname\nD'ANGELO\nGiven names\nLINH AICHA OONA\n",
      { surname: 'D ANGELO', givenNames: 'LINH AICHA OONA', nationality: null },
    ],
    [
      'EU driving licence, numbered fields inline',
      'DRIVING LICENCE\n1. MARCHAND\n2. CHLOÉ ANAÏS\n3. 12.03.1990 FRANCE\n4a. 01.02.2020\n4b. 01.02.2035\n5. D1234567\n',
      { surname: 'MARCHAND', givenNames: 'CHLOE ANAIS', nationality: null },
    ],
    [
      'EU driving licence read askew: stray marks from the edge before the numbered labels',
      'DRIVING LICENCE DENMARK\n\\ \\ 1. Lindqvist\n\\ 2. Mette Fatima Chloé\nA Bl 3 21 NOV 1994 DENMARK\n',
      { surname: 'LINDQVIST', givenNames: 'METTE FATIMA CHLOE', nationality: null },
    ],
    [
      'North-American abbreviations',
      "DRIVER'S LICENSE\nDL\nX1234567\nLN\nHOPPER\nFN\nGRACE BREWSTER\nDOB\n12/09/1986\n",
      { surname: 'HOPPER', givenNames: 'GRACE BREWSTER', nationality: null },
    ],
    [
      'misread labels are still labels (SUMAME, GRVEN NAMES), junk before a value dropped (OCR of a photographed card)',
      "CARTE NATIONALE D'IDENTITE FRANCE\n4 hd Nom / Sumame\n| iq i. GARCIA LOPEZ\n\\ | -W'  Prenoms / Grven names 1\nJ © EVA\n- Nationalité / Nationality ;\nC4 =~ FRA\n",
      { surname: 'GARCIA LOPEZ', givenNames: 'EVA', nationality: 'FRA' },
    ],
    [
      'a lost surname label: the value above the given names label',
      'PERMIS DE CONDUIRE UNITED STATES\n; IBANEZ\nh FN _\ni , LUCIA BEGONA\n! , DL\n',
      { surname: 'IBANEZ', givenNames: 'LUCIA BEGONA', nationality: null },
    ],
    [
      "a frame's bar closing the value's line (the value is before it, not after)",
      'IDENTITY CARD UNITED KINGDOM\nSurname |\nSgndergaard |\nGive es\nBrunhilde Renée\n',
      { surname: 'SGNDERGAARD', givenNames: null, nationality: null },
    ],
    [
      "a numbered label whose dot was lost, before a letter (a date's digits are no label)",
      "DRIVER'S LICENSE AUSTRIA\n‘d 1 O BRIAIN\n2. METTE SIOBHAN\n3. 1304 1951 AUSTRIA\n",
      { surname: 'O BRIAIN', givenNames: 'METTE SIOBHAN', nationality: null },
    ],
    [
      'numbered labels whose dots were all lost, a line of specks between them (a licence tilted on a hand, held-out dcdf/158)',
      "DRIVER'S LICENSE AUSTRIA\n€- 1 AL-RASHID\ni § J i\n2 AICHA LUCJA\nVa\nNaot x 3 11011965 AUSTRIA\n",
      { surname: 'AL RASHID', givenNames: 'AICHA LUCJA', nationality: null },
    ],
    [
      'a short given name one letter from a label word is a name (JAMES, NAMES)',
      'LN HOPPER\nFN JAMES ELIZABETH\n',
      { surname: 'HOPPER', givenNames: 'JAMES ELIZABETH', nationality: null },
    ],
    [
      "junk read off the portrait's edge left of the nationality: the state code, not a three-letter junk word (RET, PHOTO)",
      'PASSPORT\nSurname / Apellidos\n| 3 . ODEGARD\nGiven names / Nombre\nNJ INGRID SOFIE\n\\ ! /3 ] Nationality\nF | RET NOR\n',
      { surname: 'ODEGARD', givenNames: 'INGRID SOFIE', nationality: 'NOR' },
    ],
    [
      'a state code read as junk beside the value (NCL, New Caledonia): the last code on the line, where values stand',
      'PASSPORT\nSurname / Apellidos\nODEGARD\nGiven names / Nombre\nINGRID SOFIE\nNationality\nF | NCL NOR\n',
      { surname: 'ODEGARD', givenNames: 'INGRID SOFIE', nationality: 'NOR' },
    ],
    [
      'three letters that are no state are no nationality',
      'PASSPORT\nSurname / Apellidos\nODEGARD\nGiven names / Nombre\nINGRID SOFIE\nNationality\nXQZ\n',
      { surname: 'ODEGARD', givenNames: 'INGRID SOFIE', nationality: null },
    ],
  ])('%s', (_label, text, expected) => {
    expect(printedFields(text)).toEqual(expected);
  });

  it('a digit alone is a numbered label only where the next field follows with its dot, or a field beside it with its number', () => {
    const card = 'CARTE NATIONALE D IDENTITE\n1 - sumame, E\n3 OZTURK\n4 Given names\n* MONICA\ni 1 SEeS—— :\ni F UW2373661 i\n';
    expect(printedFields(card).surname).toBe('OZTURK');
    // A speck read as "1" before a word, with no field numbered 2 near it, is no label.
    expect(printedFields('IDENTITY CARD\n1 PHOTO\nSurname\nODEGARD\n').surname).toBe('ODEGARD');
    expect(printedFields('IDENTITY CARD\n1 PHOTO\nSurname\nODEGARD\n2 INGRID').surname).toBe('ODEGARD');
  });

  it("an EU licence's 1 read as an upright stroke is its label where field 2 follows; its dot read against the value too", () => {
    // Check set second/x105: "1." read "|.", "2. RUTA" read "2.RUTA"; the licence went to review unread.
    expect(printedFields('|. KAZLAUSKIENE ©\n2.RUTA\n\n3.08 JUL 1964 LYON\n')).toMatchObject({
      surname: 'KAZLAUSKIENE',
      givenNames: 'RUTA',
    });
    // A frame's bar before a word, with no field 2 after it, is no label.
    expect(printedFields('|. PHOTO\nSurname\nODEGARD\n').surname).toBe('ODEGARD');
  });

  it('finds nothing in text without labels', () => {
    expect(printedFields('LINE 0 SAMPLE TEXT 0123456789\nLINE 1 SAMPLE TEXT')).toEqual({
      surname: null,
      givenNames: null,
      nationality: null,
    });
  });
});
