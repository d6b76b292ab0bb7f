import { describe, expect, it } from 'vitest';
import { POLICY } from '../../src/pipeline/decide/policy.js';
import {
  repairOcrReading,
  foldTransliteration,
  icaoTransliteration,
  jaroWinkler,
  nameFloorInText,
  nameInTextScore,
  nameMatchScore,
  normalizeName,
  sameSurnameRead,
  typedGivenNamesInText,
  typedSurnameInText,
} from '../../src/pipeline/score/name-match.js';
import {
  mrzMisreadOf,
  printedNameOfUnsureZone,
  sameAsZoneName,
  sameAsZoneSurname,
  zoneNameInText,
  zoneSurnameNearTyped,
} from '../../src/pipeline/score/name-match.js';

/** What the policy makes of a score: approve (pass), review, or reject. */
type Outcome = 'pass' | 'review' | 'reject';
const outcome = (score: number): Outcome =>
  score < POLICY.nameMatch.reject ? 'reject' : score < POLICY.nameMatch.review ? 'review' : 'pass';

// [typed, document surname, document given names, expected]
type Row = [string, string, string, Outcome];

/** The same person, written as people write their names. */
const GENUINE: Row[] = [
  ['Ana Lucía Martínez García', 'MARTINEZ GARCIA', 'ANA LUCIA', 'pass'],
  ['ana lucia martinez garcia', 'MARTINEZ GARCIA', 'ANA LUCIA', 'pass'],
  ['Martínez García Ana Lucía', 'MARTINEZ GARCIA', 'ANA LUCIA', 'pass'],
  ['MARTINEZ GARCIA, Ana Lucia', 'MARTINEZ GARCIA', 'ANA LUCIA', 'pass'],
  ['Ana Martínez García', 'MARTINEZ GARCIA', 'ANA LUCIA', 'pass'],
  ['Ana Lucía Martínez', 'MARTINEZ GARCIA', 'ANA LUCIA', 'pass'],
  ['A. Lucía Martínez García', 'MARTINEZ GARCIA', 'ANA LUCIA', 'pass'],
  ['Lucía Ana Martínez García', 'MARTINEZ GARCIA', 'ANA LUCIA', 'pass'],
  ['Jürgen Müller', 'MUELLER', 'JUERGEN', 'pass'],
  ['Jurgen Muller', 'MUELLER', 'JUERGEN', 'pass'],
  ['Jürgen Müller', 'MULLER', 'JURGEN', 'pass'],
  ['Juergen Mueller', 'MULLER', 'JURGEN', 'pass'],
  ['Ingrid Sofie Ødegård', 'OEDEGAARD', 'INGRID SOFIE', 'pass'],
  ['Ingrid Sofie Odegard', 'OEDEGAARD', 'INGRID SOFIE', 'pass'],
  ['Ingrid Sofie Ødegård', 'OEDEGARD', 'INGRID SOFIE', 'pass'],
  ['Ingrid Ødegård', 'OEDEGAARD', 'INGRID SOFIE', 'pass'],
  ['Ødegård Ingrid Sofie', 'OEDEGAARD', 'INGRID SOFIE', 'pass'],
  ['Ingrid Haddad', 'HADDAD OEDEGAARD', 'INGRID SOFIE', 'pass'],
  ['Chloé Anaïs Marchand', 'MARCHAND', 'CHLOE ANAIS', 'pass'],
  ['Chloe Marchand', 'MARCHAND', 'CHLOE ANAIS', 'pass'],
  ['Åsa Ångström', 'AANGSTROEM', 'AASA', 'pass'],
  ['Asa Angstrom', 'AANGSTROEM', 'AASA', 'pass'],
  ['Ludwig van Beethoven', 'VAN BEETHOVEN', 'LUDWIG', 'pass'],
  ['Ludwig Beethoven', 'VAN BEETHOVEN', 'LUDWIG', 'pass'],
  ['Ludwig van Beethoven', 'BEETHOVEN', 'LUDWIG', 'pass'],
  ['Jan van der Berg', 'VAN DER BERG', 'JAN', 'pass'],
  ['Jan Vanderberg', 'VAN DER BERG', 'JAN', 'pass'],
  ['Omar al-Hassan', 'AL HASSAN', 'OMAR', 'pass'],
  ['Omar Al Hassan', 'ALHASSAN', 'OMAR', 'pass'],
  ['Omar Hassan', 'AL HASSAN', 'OMAR', 'pass'],
  ['María de la Cruz', 'DE LA CRUZ', 'MARIA', 'pass'],
  ["Seán O'Brien", 'OBRIEN', 'SEAN', 'pass'],
  ['Mary-Jane Watson', 'WATSON', 'MARY JANE', 'pass'],
  ['Mary Jane Watson', 'WATSON', 'MARY JANE', 'pass'],
  ['Mary Watson', 'WATSON', 'MARY JANE', 'pass'],
  ['Anne Smith-Jones', 'SMITH JONES', 'ANNE', 'pass'],
  // An initial written with a letter the zone spells with two (Þ is TH): still one letter.
  ['Ana M. Þ. Lefèvre-Durand', 'LEFEVRE DURAND', 'ANA MARIE THORA', 'pass'],
  // A printed ÞÓRA as the recogniser reads it, with confidence: PORA, bora (heldout-6e77/272, 264).
  ['Sofie Þ. Björklund', 'BJORKLUND', 'SOFIE PORA', 'pass'],
  ['Zoë Þ. Jäger', 'JAGER', 'ZOE BORA', 'pass'],
  ['Æ. Lindqvist', 'LINDQVIST', 'AESA', 'pass'],
  ['Anne Smith', 'SMITH JONES', 'ANNE', 'pass'],
  ['Anne Jones', 'SMITH JONES', 'ANNE', 'pass'],
  ['Alexandrina Wolkenstein-Rodenegg', 'WOLKENSTEIN RODEN', 'ALEXANDRINA', 'pass'],
  ['José María García', 'GARCIA', 'JOSE MARIA', 'pass'],
  ['Jose Garcia', 'GARCIA', 'JOSE MARIA', 'pass'],
  ['Nguyễn Văn An', 'NGUYEN', 'VAN AN', 'pass'],
  ['Zoë Ünal-Çelik', 'UNAL CELIK', 'ZOE', 'pass'],
  ['Łukasz Strauß', 'STRAUSS', 'LUKASZ', 'pass'],
  ['Lukasz Strauss', 'STRAUSS', 'LUKASZ', 'pass'],
  ['Søren Kierkegaard', 'KIERKEGAARD', 'SOEREN', 'pass'],
  ['Soren Kierkegaard', 'KIERKEGAARD', 'SOEREN', 'pass'],
  ['François Lefèvre', 'LEFEVRE', 'FRANCOIS', 'pass'],
  ['Björk Guðmundsdóttir', 'GUDMUNDSDOTTIR', 'BJOERK', 'pass'],
  ['Þóra Jónsdóttir', 'JONSDOTTIR', 'THORA', 'pass'],
  ['Muhammad bin Salman', 'BIN SALMAN', 'MUHAMMAD', 'pass'],
  ['John Smith', 'SMITH', 'JOHN', 'pass'],
  ['SMITH John', 'SMITH', 'JOHN', 'pass'],
  ['J Smith', 'SMITH', 'JOHN', 'pass'],
  ['John Paul Smith', 'SMITH', 'JOHN PAUL', 'pass'],
  ['Paul Smith', 'SMITH', 'JOHN PAUL', 'pass'],
  ['Siobhán Ní Bhriain', 'NI BHRIAIN', 'SIOBHAN', 'pass'],
  ['Hans-Peter Müller-Lüdenscheidt', 'MUELLER LUEDENSCHEIDT', 'HANS PETER', 'pass'],
  ['Hans-Peter Müller', 'MUELLER LUEDENSCHEIDT', 'HANS PETER', 'pass'],
  ['Mei Ling Wong', 'WONG', 'MEI LING', 'pass'],
  ['Wong Mei Ling', 'WONG', 'MEI LING', 'pass'],
  ['Li Na', 'LI', 'NA', 'pass'],
  ['Yılmaz Elif', 'YILMAZ', 'ELIF', 'pass'],
  ['Emma Johansson', 'JOHANSSON', 'EMMA', 'pass'],
  ['Pablo Rodríguez', 'RODRIGUEZ', 'JUAN PABLO', 'pass'],
];

/** Another person, or a name that a person must look at: never a pass. */
const NEAR_MISSES: Row[] = [
  // Another surname with the same given names: always rejected.
  ['Ingrid Sofie Haddad', 'OEDEGAARD', 'INGRID SOFIE', 'reject'],
  ['Chloé Anaïs Haddad', 'MARCHAND', 'CHLOE ANAIS', 'reject'],
  ['Ana Lucía Martínez López', 'MARTINEZ GARCIA', 'ANA LUCIA', 'reject'],
  ['Ana Lucía Sánchez', 'MARTINEZ GARCIA', 'ANA LUCIA', 'reject'],
  ['Sofie Ingrid Haddad', 'OEDEGAARD', 'INGRID SOFIE', 'reject'],
  ['Haddad Ingrid Sofie', 'OEDEGAARD', 'INGRID SOFIE', 'reject'],
  ['Anaïs Chloé Martin', 'MARCHAND', 'CHLOE ANAIS', 'reject'],
  ['Ludwig van Beethoven', 'VAN BERG', 'LUDWIG', 'reject'],
  ['Omar al-Hassan', 'AL HUSSEIN', 'OMAR', 'reject'],
  ['John Smith', 'SMYTHE', 'JOHN', 'reject'],
  ['Alexander Petrov', 'IVANOV', 'ALEXANDER', 'reject'],
  ['Björk Gudmundsdottir', 'GUDMUNDSSON', 'BJOERK', 'reject'],
  ['Wong Mei', 'WANG', 'MEI LING', 'reject'],
  // An initial of no given name on the document: review.
  ['Ana Þ. Lefèvre-Durand', 'LEFEVRE DURAND', 'ANA MARIE', 'review'],
  // A typed T. is one letter, no Þ: it stands for no P or B.
  ['Sofie T. Björklund', 'BJORKLUND', 'SOFIE PORA', 'review'],
  ['Mei Ling Wang', 'WONG', 'MEI LING', 'reject'],
  ['Muhammad bin Salman', 'BIN SULTAN', 'MUHAMMAD', 'reject'],
  ['Lukas Strauss', 'STRAUB', 'LUKAS', 'reject'],
  ['Emma Johansson', 'JOHANSEN', 'EMMA', 'reject'],
  ['Fatima Zahra', 'ZAHRANI', 'FATIMA', 'reject'],
  ['Kim Lee', 'LI', 'KIM', 'reject'],
  ['Sara Cohen', 'COHN', 'SARA', 'reject'],
  ['Priya Sharma', 'VERMA', 'PRIYA', 'reject'],
  ['Chioma Okafor', 'OKONKWO', 'CHIOMA', 'reject'],
  ['Elif Yılmaz', 'YILDIZ', 'ELIF', 'reject'],
  ['Grace Hopper', 'MARTINEZ GARCIA', 'ANA LUCIA', 'reject'],
  ['Eileen Collins', 'HOPPER', 'GRACE BREWSTER', 'reject'],
  ['Ana Lucía', 'MARTINEZ GARCIA', 'ANA LUCIA', 'reject'],
  // Same surname, another given name: another person.
  ['Pierre Marchand', 'MARCHAND', 'CHLOE ANAIS', 'reject'],
  ['Ingrid Sofie Ødegård', 'OEDEGAARD', 'KARI ANNE', 'reject'],
  ['Lucía Martínez García', 'MARTINEZ GARCIA', 'ANA', 'reject'],
  ['Søren Kierkegaard', 'KIERKEGAARD', 'SVEN', 'reject'],
  ['Jose Garcia', 'GARCIA', 'JUAN', 'reject'],
  ['Ivan Petrov', 'PETROV', 'ALEXANDER', 'reject'],
  ['John Smith', 'SMITH', 'JANE', 'reject'],
  ['Ahmed Khan', 'KHAN', 'MOHAMMED', 'reject'],
  ['Ngozi Okafor', 'OKAFOR', 'CHIOMA', 'reject'],
  ['Pedro Alves', 'ALVES PEREIRA', 'JOAO', 'reject'],
  // One letter off, an extra or shortened given name, a surname alone: a person looks.
  ['Peter Pedersen', 'PETERSEN', 'PETER', 'review'],
  ['Jürgen Müller', 'MOLLER', 'JURGEN', 'review'],
  ['Hans Meier', 'MEYER', 'HANS', 'review'],
  ['Anna Schmidt', 'SCHMITT', 'ANNA', 'review'],
  ['Jan van der Berg', 'VAN DER BERGH', 'JAN', 'review'],
  ['Omar Hassan', 'HASAN', 'OMAR', 'review'],
  ['Chloé Anaïs Marchant', 'MARCHAND', 'CHLOE ANAIS', 'review'],
  ['Anna Karenina', 'KARENIN', 'ANNA', 'review'],
  ['Alex Petrova', 'PETROV', 'ALEXANDER', 'review'],
  ['Anna-Lena Schulz', 'SCHULZE', 'ANNA LENA', 'review'],
  ['Sara Cohen', 'KOHEN', 'SARA', 'review'],
  ['Dmitri Ivanov', 'IVANOVA', 'DMITRI', 'review'],
  ['Kowalski Jan', 'KOWALSKA', 'JAN', 'review'],
  ["Tomás O'Neill", 'ONEIL', 'TOMAS', 'review'],
  ['Ingrid Sofie Ødegaard-Haddad', 'OEDEGAARD', 'INGRID SOFIE', 'review'],
  ['Chloé Anaïs Marchand-Haddad', 'MARCHAND', 'CHLOE ANAIS', 'review'],
  ['Anne Jones-Smith', 'SMITH JONES', 'ANNE', 'review'],
  ['Joao Pereira Alves', 'ALVES PEREIRA', 'JOAO', 'review'],
  ['Ana Sofía Martínez García', 'MARTINEZ GARCIA', 'ANA LUCIA', 'review'],
  ['Ana Lucia Martinez Garcia', 'MARTINEZ GARCIA', 'ANA LUISA', 'review'],
  ['Jose Maria Garcia', 'GARCIA', 'JOSE LUIS', 'review'],
  ['Juan Carlos Rodríguez', 'RODRIGUEZ', 'JUAN PABLO', 'review'],
  ['Martínez García', 'MARTINEZ GARCIA', 'ANA LUCIA', 'review'],
  ['Jan Nowak', 'NOWAK', 'JANINA', 'review'],
  ['Paula Nowak', 'NOWAK', 'PAUL', 'review'],
  ['Alex Petrov', 'PETROV', 'ALEXANDER', 'review'],
  ['Jon Smith', 'SMITH', 'JOHN', 'review'],
  ['Chloé Anaïs Marchand', 'MARCHAND', 'CLOE ANAIS', 'review'],
  ['Mohammed Khan', 'KHAN', 'MOHAMMAD', 'review'],
  ['Maria de la Cruz', 'DE LA CRUZ', 'MARTA', 'review'],
];

describe('name match: surname and given names compared apart', () => {
  it('has a table of at least 100 pairs, half of them near misses', () => {
    expect(GENUINE.length + NEAR_MISSES.length).toBeGreaterThanOrEqual(100);
    expect(NEAR_MISSES.length * 2).toBeGreaterThanOrEqual(GENUINE.length + NEAR_MISSES.length - 2);
  });

  it.each(GENUINE)('"%s" for %s, %s: %s', (typed, surname, given, expected) => {
    expect(outcome(nameMatchScore(typed, { surname, givenNames: given, truncated: surname === 'WOLKENSTEIN RODEN' }))).toBe(expected);
  });

  it.each(NEAR_MISSES)('"%s" for %s, %s: %s', (typed, surname, given, expected) => {
    expect(outcome(nameMatchScore(typed, { surname, givenNames: given }))).toBe(expected);
  });

  it('a name cut by the MRZ matches only when the zone was full (truncated)', () => {
    const doc = { surname: 'WOLKENSTEIN RODEN', givenNames: 'ALEXANDRINA' };
    expect(nameMatchScore('Alexandrina Wolkenstein-Rodenegg', { ...doc, truncated: true })).toBeGreaterThanOrEqual(0.9);
    expect(nameMatchScore('Alexandrina Wolkenstein-Rodenegg', { ...doc, truncated: false })).toBeLessThan(0.85);
  });

  it('a zone cut at its end may leave out the last given names typed, never one it shows', () => {
    const doc = { surname: 'WOJCIK', givenNames: 'MARIE CLAIRE ANNE MARI' };
    const typed = 'Marie-Claire Anne-Marie Ayşe Wójcik';
    expect(nameMatchScore(typed, { ...doc, truncated: true })).toBeGreaterThanOrEqual(0.85);
    // Not cut: AYSE is a given name the document does not have.
    expect(nameMatchScore(typed, { ...doc, truncated: false })).toBeLessThan(0.85);
    // Cut, but CLAIRE on the zone was not typed: another combination of names.
    expect(nameMatchScore('Marie Anne-Marie Ayşe Wójcik', { ...doc, truncated: true })).toBeLessThan(0.85);
  });

  it('exact forms score 1, tolerated variants less, nothing typed 0', () => {
    expect(nameMatchScore('Ana Lucía Martínez García', { surname: 'MARTINEZ GARCIA', givenNames: 'ANA LUCIA' })).toBe(1);
    expect(nameMatchScore('Ana Martínez García', { surname: 'MARTINEZ GARCIA', givenNames: 'ANA LUCIA' })).toBe(0.95);
    expect(nameMatchScore('', { surname: 'SMITH', givenNames: 'JOHN' })).toBe(0);
  });
});

describe('name normalisation', () => {
  it('drops accents, transliterates as ICAO 9303 does, and folds both spellings together', () => {
    expect(normalizeName('  Zoë  Ünal-Çelik ')).toBe('ZOE UNAL CELIK');
    expect(normalizeName('Łukasz Strauß Ødegård')).toBe('LUKASZ STRAUSS ODEGARD');
    expect(icaoTransliteration('Jürgen Müller Ødegård Åsa')).toBe('JUERGEN MUELLER OEDEGAARD AASA');
    expect(foldTransliteration('MUELLER')).toBe(foldTransliteration('MULLER'));
    expect(foldTransliteration('OEDEGAARD')).toBe(foldTransliteration('ODEGARD'));
  });

  it('Jaro-Winkler reference values', () => {
    expect(jaroWinkler('MARTHA', 'MARHTA')).toBeCloseTo(0.961, 3);
    expect(jaroWinkler('DIXON', 'DICKSONX')).toBeCloseTo(0.813, 3);
  });
});

describe('name in free text (no surname/given split known)', () => {
  const text = 'PASSPORT\nSurname / Apellidos MARTÍNEZ GARCÍA\nGiven names\nANA LUCÍA Nationality ESP\n';
  it('finds the name wherever the layout puts it', () => {
    expect(nameInTextScore('Ana Lucía Martínez García', text)).toBe(1);
    expect(nameInTextScore('Ana', '')).toBe(0);
  });
  it('a surname that is not in the text never passes on the strength of the given names', () => {
    expect(outcome(nameInTextScore('Ana Lucía Haddad', text))).not.toBe('pass');
    expect(outcome(nameInTextScore('Grace Hopper', text))).toBe('reject');
  });
  it('a typed word printed whole in a text without labels leaves the rest unread, not mismatched: review, never reject', () => {
    // Check set twenty-third/x038, a passport at 640 x 480: KOVACS read, its given name ZSÓFIA read 2s0tia.
    const passport = 'Kovacs\n\n2s0tia\n\nTen “Nel at Dole\n\nF HUN 02 10 2000\n\nX2840074¢ 26 04 2035';
    const reject = POLICY.nameMatch.reject;
    const floored = (typed: string, ...texts: string[]) =>
      nameFloorInText(
        typed,
        nameInTextScore(typed, texts[0]!),
        texts.map((t) => ({ text: t })),
        reject,
      );
    expect(outcome(nameInTextScore('Kovács, Zsófia', passport))).toBe('reject');
    expect(floored('Kovács, Zsófia', passport)).toBe(reject);
    expect(outcome(floored('Kovács, Zsófia', passport))).toBe('review');
    // Printed in another reading of the side only: the same.
    expect(floored('Kovács, Zsófia', 'K0vacs 2s0tia', passport)).toBe(reject);
    // The whole name there scores as ever; another name altogether, or a word of four letters or
    // fewer matched (junk reads them by chance), is still rejected.
    expect(floored('Ana Lucía Martínez García', text)).toBe(1);
    expect(outcome(floored('Grace Hopper', text))).toBe('reject');
    expect(outcome(floored('Ana Hopper', text))).toBe('reject');
    // Transliterated either way: ØDEGÅRD typed, ODEGARD or OEDEGAARD printed.
    expect(floored('Ingrid Ødegård', 'OEDEGAARD\nx1n9r1d')).toBe(reject);
  });
  it('junk read from a pattern does not stand for a typed name: a short word must be there as typed, a fragment is no word', () => {
    // A licence whose labels were lost, and a wavy pattern read as words (TRAE, BRI).
    const licence = 'DRIVING LICENCE UNITED STATES\nIN\nMac Giolla\nV\nJoão Ólöf\nA3554778\nPETTERS SSE tt Rtesr re SERRE Fate trae BRI';
    expect(outcome(nameInTextScore('João Ólöf Trần', licence))).not.toBe('pass');
    expect(outcome(nameInTextScore('João Ólöf Brink', licence))).not.toBe('pass');
    expect(outcome(nameInTextScore('João Ólöf Mac Giolla', licence))).toBe('pass');
  });
  it('a near word is a misreading only where the recogniser was unsure of it; read with confidence it is another name', () => {
    const misread = text.replace('MARTÍNEZ', 'MARTINEZ').replace('GARCÍA', 'GARClA');
    expect(outcome(nameInTextScore('Ana Lucía Martínez Garcia', misread, new Set(['GARCLA'])))).toBe('pass');
    expect(outcome(nameInTextScore('Ana Lucía Martínez Garcia', misread))).toBe('review');
    // Held-out 2026-11-27: "Marie Da Silva" typed for a card of Begoña María Da Silva whose labels were lost.
    const card = 'IDENTITY CARD\nDA SILVA\nBEGOÑA MARÍA\n12 03 1988';
    expect(outcome(nameInTextScore('Marie Da Silva', card))).toBe('review');
    expect(outcome(nameInTextScore('Mario Da Silva', card))).toBe('review');
    expect(outcome(nameInTextScore('María Da Silva', card))).toBe('pass');
    expect(outcome(nameInTextScore('Begona Maria Da Silva', card))).toBe('pass');
    // Transliterated both ways and cut by a full field are the word itself, not near words.
    expect(outcome(nameInTextScore('Søren Ødegård', 'ODEGAARD\nSOEREN'))).toBe('pass');
    expect(outcome(nameInTextScore('Alexandrina Ødegård', 'OEDEGAARD\nALEXANDRIN'))).toBe('pass');
  });
  it("a surname's prefix letter is one word with it (O'CONNOR as the zone writes it); a letter alone is still an initial", () => {
    // Held-out dcdf/071: a licence whose numbered labels were misread, the name whole in the text.
    const licence = "DRIVING LICENCE FRANCE\nME |. O'CONNOR\n& eS >. NORA AYSE BJORK\nR (7) 3. 15 NOV 1974 FRANCE";
    expect(outcome(nameInTextScore("Nora Ayşe Björk O'Connor", licence))).toBe('pass');
    expect(outcome(nameInTextScore('Nora Ayşe Björk OConnor', licence))).toBe('pass');
    // Another family name: CONNOR alone, or the prefix letter on another word, is not O'CONNOR.
    expect(outcome(nameInTextScore("Nora Ayşe Björk O'Connor", licence.replace("O'CONNOR", 'CONNOR')))).not.toBe('pass');
    expect(outcome(nameInTextScore("Nora Ayşe Björk O'Connor", licence.replace("O'CONNOR", "D'CONNOR")))).not.toBe('pass');
    expect(outcome(nameInTextScore("Nora Ayşe Björk O'Brien", licence))).not.toBe('pass');
    // An initial followed by a dot stays an initial of a middle name.
    expect(outcome(nameInTextScore('Nora D. Björk', 'BJORK\nNORA DAGNY'))).toBe('pass');
  });
});

describe('typedGivenNamesInText (a misread given-names label)', () => {
  const text = 'PERMIS DE CONDUIRE\nLN\nHOPPER\n\\ 1 =\nELIZABETH FRANCOIS\nDL Y7336301';
  it('finds each typed given name among the words, accents and transliterations folded, the surname left out', () => {
    expect(typedGivenNamesInText('Elizabeth François Hopper', 'HOPPER', text)).toBe('ELIZABETH FRANCOIS');
    expect(typedGivenNamesInText('HOPPER, Elizabeth', 'HOPPER', text)).toBe('ELIZABETH');
  });
  it('is empty when a typed given name is not in the text, so another person is not lifted', () => {
    expect(typedGivenNamesInText('Maria Hopper', 'HOPPER', text)).toBe('');
    expect(
      nameMatchScore('Maria Hopper', { surname: 'HOPPER', givenNames: typedGivenNamesInText('Maria Hopper', 'HOPPER', text) }),
    ).toBeLessThan(0.85);
  });
});

describe('a middle initial in free text', () => {
  const text = 'DRIVING LICENCE\n1. LINDQVIST\n2. MALGORZATA DAGNY\n3. 27.02.1964';
  it('stands for a word of the text with its letter, in the middle of the typed name only', () => {
    expect(nameInTextScore('Małgorzata D. Lindqvist', text)).toBeGreaterThanOrEqual(POLICY.nameMatch.review);
    // The surname typed as an initial proves nothing: review at most.
    expect(nameInTextScore('Małgorzata Dagny L.', text)).toBeLessThan(POLICY.nameMatch.review);
    expect(nameInTextScore('L. Małgorzata', text)).toBeLessThan(POLICY.nameMatch.review);
    // An initial with no word of its letter in the text.
    expect(nameInTextScore('Małgorzata X. Lindqvist', text)).toBeLessThan(POLICY.nameMatch.review);
  });
});

describe('OCR readings repaired where they misread the typed name (Ł read T, Þ read P, Ø read @, Ç read G, dropped spaces)', () => {
  it.each([
    // A printed word that is a typed word but for such letters is taken as typed, however the user typed them.
    ['Anna Łukaszewska', 'TUKASZEWSKA', 'LUKASZEWSKA'],
    ['Anna Lukaszewska', 'TUKASZEWSKA', 'LUKASZEWSKA'],
    ['Þóra Jónsdóttir', 'PORA', 'THORA'],
    ['Eva Thorsdottir', 'PORSDOTTIR', 'THORSDOTTIR'],
    ['Brünhilde Åberg', 'Briinhilde Aberg', 'BRUNHILDE Aberg'],
    ['Łucja Łada', 'TUCJA TADA', 'LUCJA LADA'],
    ['łucja lucía schröder', 'EUCJA LUCIA', 'LUCJA LUCIA'],
    ['Lucja Lucia Schroder', 'EUCJA LUCIA', 'EUCJA LUCIA'], // E stands for Ł only when a Ł was typed
    ['Conceição José Søndergaard', 'S@NDERGAARD\nCONCEIGAO JOSE', 'SONDERGAARD\nCONCEICAO JOSE'],
    ['Ólöf Øydis de Souza', 'OLOF @YDIS', 'OLOF OYDIS'],
    // G stands for Ç only when the typed name holds a Ç: GALLO is not a typed CALLO.
    ['Maria Callo', 'GALLO', 'GALLO'],
    ['Conceicao Silva', 'CONCEIGAO', 'CONCEIGAO'],
    // Words of one or two letters are left alone.
    ['Li Wang', 'TI WANG', 'TI WANG'],
    // In place: lines, digits and labels stay as read.
    ['Þóra Jónsdóttir', 'Surname\nJónsdóttir\n2. Given names: PORA 1990', 'Surname\nJónsdóttir\n2. Given names: THORA 1990'],
    // Typed words run together by a dropped space are split again...
    ['Eva José Thorsdottir', '2 EVAJOSE', '2 EVA JOSE'],
    // ...only consecutive typed words, whole: another name run together stays one word.
    ['Eva José Thorsdottir', 'JOSEEVA EVAJOS', 'JOSEEVA EVAJOS'],
    // Anything else is left as read: another surname, another letter, a second difference.
    ['Anna Łukaszewska', 'LUKASZEWSKI', 'LUKASZEWSKI'],
    ['Anna Łukaszewska', 'KOWALSKA TUKASZEWSKO', 'KOWALSKA TUKASZEWSKO'],
    // The stand-in is accepted anywhere in the word (the price: a surname that differs from the
    // typed one only by T for L would pass; none was found among the evaluation names).
    ['Anna Kowalska', 'KOWATSKA', 'KOWALSKA'],
    ['Anna Kowalska', 'KOWASKA', 'KOWASKA'],
    ['Anna Kowalska', 'POWALSKA', 'POWALSKA'],
    // ß (SS once normalised) read as LL, L or B, only when the typed name holds a ß.
    ['Marie-Claire Ilse Weiß', 'Surname\nWeill', 'Surname\nWEISS'],
    ['Marie-Claire Ilse Weiß', "Po Weil'", "Po WEISS'"],
    ['Greta Weiß', 'WEIB', 'WEISS'],
    ['Greta Weiss', 'WEILL', 'WEILL'],
    ['Greta Weiß', 'WEIKL', 'WEIKL'],
    // Ø read as G, only when the typed name holds a Ø: SGNDERGAARD for Søndergaard, GLSEN is no typed OLSEN.
    ['Søndergaard, Brünhilde', 'Sgndergaard', 'SONDERGAARD'],
    ['Brünhilde Sondergaard', 'Sgndergaard', 'Sgndergaard'],
    // Þ read as B (typed Þ or TH); Ø as E and Ü as I only when the typed name holds them (a typed
    // Jonsen is no JENSEN, a typed Muller no MILLER); Ñ read as FI, typed Ñ or N...
    ['Þóra Søren Haddad', 'BORA SEREN HADDAD', 'THORA SOREN HADDAD'],
    ['Thora Bianchi', '1. BIANCHI\n2. BORA', '1. BIANCHI\n2. THORA'],
    ['Thora Bianchi', 'BOBA', 'BOBA'],
    ['Soren Jonsen', 'SEREN JENSEN', 'SEREN JENSEN'],
    ['Mary Müller', 'MILLER', 'MULLER'],
    ['Mary Muller', 'MILLER', 'MILLER'],
    ['Francois Nuñez', 'NUFIEZ', 'NUNEZ'],
    ['Francois Nunez', 'NUFIEZ', 'NUNEZ'],
    ['Francois Nunez', 'NUFEZ', 'NUFEZ'],
    // ...or as IL in a serif face (heldout-a180/109); an IL that is no N's stand-in stays.
    ['Inés Núñez', 'Surname\nNuilez', 'Surname\nNUNEZ'],
    ['Ines Nunez', 'NUILEZ', 'NUNEZ'],
    ['Ines Nunez', 'NUILLEZ', 'NUILLEZ'],
    ['Ines Nunez', 'MUILEZ', 'MUILEZ'],
    // Ã read as D, where the typed name holds an Ã...
    ["João O'Connor", "O'Connor\nJodo", "O'Connor\nJOAO"],
    ['joão gonçalves simões', 'Jodo Pedro', 'JOAO Pedro'],
    // ...but a typed -AO (Joao, Conceicao: the tilde left out) is printed -ÃO, read -DO all the
    // same (study seed c49/249); a D elsewhere stays as read.
    ['Joao Simoes', 'Jodo Pedro', 'JOAO Pedro'],
    ['Maria Conceicao', 'CONCEICDO', 'CONCEICAO'],
    ['Joao Simoes', 'Jodd', 'Jodd'],
    ['Dana Simoes', 'DDNA', 'DDNA'],
    // A capital I, a small l and an undotted i are one upright stroke in a sans-serif face: a
    // printed Ilse read lise, a Paola read PaoIa. A capital L is no stroke: another person's Lise
    // stays as read; words under four letters are left alone.
    ['Ilse Ødegård', 'Given names\nlise', 'Given names\nILSE'],
    ['Ilse Ødegård', 'Given names\nLise', 'Given names\nLise'],
    ['Ilse Ødegård', 'LISE', 'LISE'],
    ['Paola Rossi', 'PaoIa ROSSI', 'PAOLA ROSSI'],
    ['Emilia Lindqvist', 'Emllia Lindqvist', 'EMILIA Lindqvist'],
    ['Emilia Lindqvist', 'Emllia Iindqvist', 'EMILIA Iindqvist'],
    ['Ali Khan', 'All Khan', 'All Khan'],
    // Ü typed as ICAO writes it (UE) and read II, Ø typed OE and read @: the typed spelling. A
    // word that differs elsewhere (BILLOW) stays as read.
    ['Ayse Kirsten Von Buelow', 'Surname\nvon Biilow', 'Surname\nvon BUELOW'],
    ['Ayse Kirsten Von Buelow', 'von Billow', 'von Billow'],
    ['Oeydis Haugen', 'Given names\n@YDIS', 'Given names\nOEYDIS'],
    ['Oeydis Haugen', 'BYDIS', 'BYDIS'],
    // Ð read as P with confidence, only when the typed name holds an Ð (heldout-926b/047).
    ['kateřina hélène guðmundsdóttir', '1. GUPMUNDSDOTTIR', '1. GUDMUNDSDOTTIR'],
    ['Katerina Gudmundsdottir', '1. GUPMUNDSDOTTIR', '1. GUPMUNDSDOTTIR'],
    // J's hook lost: read as I, or the IJ of a Dutch name as one I. A typed I is no printed J.
    ['Fatima van Dijk', '1. VAN DIK', '1. VAN DIJK'],
    ['François Wójcik', 'WOICIK', 'WOJCIK'],
    ['Fatima van Dik', '1. VAN DIJK', '1. VAN DIJK'],
    ['Fatima Dirk', 'DIK', 'DIK'],
    // An Irish Ó read as a digit (6, or 0) before the typed surname (heldout-58be/163): an O again;
    // a digit within a number, or before another word, stays.
    ['Ayse Elizabeth O Briain', 'LN\n/ 6 BRIAIN\nAYSE', 'LN\n/ O BRIAIN\nAYSE'],
    ['Ayse Elizabeth Ó Briain', '0 Briain', 'O Briain'],
    ['Ayse Elizabeth O Briain', '16 BRIAIN', '16 BRIAIN'],
    ['Ayse Elizabeth O Briain', '6 BRENNAN', '6 BRENNAN'],
    ['Ayse Elizabeth Briain', '6 BRIAIN', '6 BRIAIN'],
  ])('typed %s, read %j: %j', (typed, read, expected) => {
    expect(repairOcrReading(typed, read)).toBe(expected);
  });
  // A word the recogniser was unsure of, the typed word but at one or two letters typed with a
  // mark (each read as one or two other letters, or lost): the typed spelling. Read with
  // confidence, typed without the mark, off at an unmarked letter too, or at three marks, it stays.
  it.each<[string, string, string[], string]>([
    ['João Kateřina Guðmundsdóttir', 'GUPMUNDSDOTTIR', ['GUPMUNDSDOTTIR'], 'GUDMUNDSDOTTIR'],
    ['João Kateřina Guðmundsdóttir', 'GUBDMUNDSDOTTIR', ['GUBDMUNDSDOTTIR'], 'GUDMUNDSDOTTIR'],
    ['Ingrid Guðmundsdóttir', 'Surname\nGudémundsdéttir', [' Gudémundsdéttir'], 'Surname\nGUDMUNDSDOTTIR'],
    ['Ángela Fernández de Córdoba', 'Fernandez de Cdrdoba', ['Cdrdoba'], 'Fernandez de CORDOBA'],
    ['Ayşe Çelik', 'CELK ELIK', ['ELIK'], 'CELK CELIK'],
    ['Ángela Fernández de Córdoba', 'Fernandez de Cdrdoba', [], 'Fernandez de Cdrdoba'],
    ['Ingrid Gudmundsdottir', 'GUPMUNDSDOTTIR', ['GUPMUNDSDOTTIR'], 'GUPMUNDSDOTTIR'],
    ['Ingrid Guðmundsdóttir', 'GUPMUNDSDOTTIB', ['GUPMUNDSDOTTIB'], 'GUPMUNDSDOTTIB'],
    ['Ingrid Guðmundsdóttir', 'GUPMUNDSDOTTR', ['GUPMUNDSDOTTR'], 'GUPMUNDSDOTTR'],
    ['Zoë Ødegård', 'PDEGPRD', ['PDEGPRD'], 'ODEGARD'],
    ['Sunna Þórðardóttir', 'PERPARDETTIR', ['PERPARDETTIR'], 'PERPARDETTIR'],
    ['Ana Ruíz', 'RUZ', ['RUZ'], 'RUZ'],
    // A marked letter and the letter beside it read as two others (the Ø's stroke into the J),
    // in a word long enough to keep four letters as typed; one letter for the two is another name.
    ['Solveig Marit Bjørnstad', '1. BUORNSTAD', ['BUORNSTAD'], '1. BJORNSTAD'],
    ['Solveig Marit Bjørnstad', '1. BORNSTAD', ['BORNSTAD'], '1. BORNSTAD'],
    ['Solveig Marit Bjørnstad', '1. BUORNSTAD', [], '1. BUORNSTAD'],
    ['Solveig Marit Bjørnstad', '1. BUORNSTAP', ['BUORNSTAP'], '1. BUORNSTAP'],
    ['Zoë Øhr', 'UHR', ['UHR'], 'UHR'],
  ])('typed %s, read %j, unsure of %j: %j', (typed, read, unsure, expected) => {
    expect(repairOcrReading(typed, read, unsure)).toBe(expected);
  });
  it('the repaired reading scores as the typed name; another surname still does not', () => {
    expect(nameMatchScore('Anna Łukaszewska', { surname: repairOcrReading('Anna Łukaszewska', 'TUKASZEWSKA'), givenNames: 'ANNA' })).toBe(
      1,
    );
    expect(
      nameMatchScore('Eva José Thorsdottir', {
        surname: repairOcrReading('Eva José Thorsdottir', 'PORSDOTTIR'),
        givenNames: repairOcrReading('Eva José Thorsdottir', 'EVAJOSE'),
      }),
    ).toBe(1);
    expect(nameMatchScore('Anna Kowalska', { surname: repairOcrReading('Anna Kowalska', 'NOWAK'), givenNames: 'ANNA' })).toBeLessThan(
      POLICY.nameMatch.review,
    );
  });
});

describe('mrzMisreadOf (an MRZ name field misread, confirmed by the printed name)', () => {
  it.each([
    // The zone's name a few letters off the printed one: a misreading of the same document.
    [{ surname: 'DUPONT', givenNames: 'RID' }, { surname: 'Dupont', givenNames: 'Ingrid' }, true],
    [{ surname: 'KAERYVAEINEN', givenNames: 'THORA CONCEICAO' }, { surname: 'Kärkkäinen', givenNames: 'Þóra Conceição' }, true],
    [{ surname: 'PANGELO', givenNames: 'LINH AICHA OONA' }, { surname: "D'Angelo", givenNames: 'Linh Aïcha Oona' }, true],
    [{ surname: 'OEDEGAARD', givenNames: 'INGRID SOFIE' }, { surname: 'Ødegård', givenNames: 'Ingrid Sofie' }, true],
    // Each part within a misreading of its own, though 4 letters off in all: a mark beside the zone
    // joined to the surname, given names that lost and gained a letter (held-out aa38/155).
    [{ surname: 'IPAPADOPOULOU', givenNames: 'ANS SOFIE JOSEI' }, { surname: 'Papadopoulou', givenNames: 'Anaïs Sofie José' }, true],
    // A second surname of another family beside long given names: 4 letters off in all and in the surname.
    [{ surname: 'GARCIA LOPEZ', givenNames: 'MEI ANNE MARIE' }, { surname: 'García Moreno', givenNames: 'Mei Anne-Marie' }, false],
    // The zone's `<<` lost with the given name's first letter: the whole name read as its surname
    // (heldout-6e77/290), a misreading in the zone's own order.
    [{ surname: 'DANGELO RANCOIS', givenNames: '' }, { surname: "D'Angelo", givenNames: 'François' }, true],
    // In that order too, another surname is no misreading.
    [{ surname: 'MORETTI FRANCOIS', givenNames: '' }, { surname: "D'Angelo", givenNames: 'François' }, false],
    // Given names within a misreading, the surname not: never.
    [{ surname: 'HANSEN', givenNames: 'ANS SOFIE' }, { surname: 'Jensen', givenNames: 'Anaïs Sofie' }, false],
    // Another name altogether: never.
    [{ surname: 'ODEGARD', givenNames: 'INGRID SOFIE' }, { surname: 'Haddad', givenNames: 'Ingrid Sofie' }, false],
    [{ surname: 'MARCHAND', givenNames: 'CHLOE ANAIS' }, { surname: 'Haddad', givenNames: 'Chloé Anaïs' }, false],
    // A short name allows fewer differences (under a quarter of it): two here, not three.
    [{ surname: 'WANG', givenNames: 'LI' }, { surname: 'Wong', givenNames: 'Lu' }, false],
    [{ surname: 'LUNDQVIST', givenNames: 'EVA' }, { surname: 'Lindberg', givenNames: 'Eva' }, false],
  ])('zone %j, printed %j: %s', (mrz, printed, expected) => {
    expect(mrzMisreadOf(mrz, printed)).toBe(expected);
  });
});

describe("printedNameOfUnsureZone (a zone whose surname as read says nothing: the print is the document's name)", () => {
  // heldout-58be/141: the zone's `I<PRTHORVATH` read `<<TMR1MVYRVAIH`, the page read the card's fields.
  const zone = { documentNumber: 'SK8996961' };
  const page = 'Apellidos / Surname\nHORVATH\nNombre / Given names\nOONA SOFIE ANA\nDocument No\nH SK8996961 pH\n';
  it.each([
    ['the print of this document', { surname: 'HORVATH', givenNames: 'OONA SOFIE ANA' }, page, true],
    // The number read with look-alikes (8 as B): still shown.
    [
      'its number read with a look-alike',
      { surname: 'HORVATH', givenNames: 'OONA SOFIE ANA' },
      page.replace('SK8996961', 'SKB996961'),
      true,
    ],
    // One character misread as no look-alike (heldout-926b/174: AK6786789 read AKB786789): still this document's number.
    [
      'its number read with one character misread',
      { surname: 'HORVATH', givenNames: 'OONA SOFIE ANA' },
      page.replace('SK8996961', 'SK8996967'),
      true,
    ],
    // Two: the page shows no number of this document; it was not read well enough to stand for the zone.
    ['no document number read', { surname: 'HORVATH', givenNames: 'OONA SOFIE ANA' }, page.replace('SK8996961', 'SK8796967'), false],
    [
      'the number within another word',
      { surname: 'HORVATH', givenNames: 'OONA SOFIE ANA' },
      page.replace('H SK8996961', 'HSK8996961'),
      false,
    ],
    ['no surname printed', { surname: '', givenNames: 'OONA SOFIE ANA' }, page, false],
    ['a surname of one letter', { surname: 'K', givenNames: 'OONA SOFIE ANA' }, page, false],
  ])('%s', (_what, printed, text, expected) => {
    expect(printedNameOfUnsureZone(zone, printed, text)).toBe(expected);
  });
  it('a number shorter than 8 characters must be read whole', () => {
    const name = { surname: 'HORVATH', givenNames: 'OONA SOFIE ANA' };
    expect(printedNameOfUnsureZone({ documentNumber: 'K899696' }, name, page.replace('SK8996961', 'K899696'))).toBe(true);
    expect(printedNameOfUnsureZone({ documentNumber: 'K899696' }, name, page.replace('SK8996961', 'K899697'))).toBe(false);
  });
});

describe('typedSurnameInText (a zone whose surname says nothing, a reading of the print without its labels)', () => {
  // heldout-a180/071: the block's reading of a passport page, its labels lost, its zone read DQVIST.
  const block = '8 PASAPORTE - PASSPORT TORKVE RB\n§ LINDQVIST\n8 MARY JOSE\nCa 07 JUN 1997 2 i !\n“8 LR7975896 eo\n';
  it.each([
    ['the typed surname printed', 'Mary Jose Lindqvist', 'MARY JOSE', block, 'LINDQVIST'],
    ['typed surname first', 'Lindqvist Mary', 'MARY JOSE', block, 'LINDQVIST'],
    // Transliterated either way (Ø typed, OE or O printed).
    ['a typed mark the print spells out', 'Øydis Sørensen', 'OEYDIS', 'SOERENSEN\nOEYDIS', 'SOERENSEN'],
    ['two typed surnames printed', 'Ana Martínez García', 'ANA', 'MARTINEZ GARCIA\nANA', 'MARTINEZ GARCIA'],
    // Another family name printed (another person's document), or the typed surname misread: none.
    ['another surname printed', 'Mary Jose Lindberg', 'MARY JOSE', block, null],
    ['the surname misread', 'Mary Jose Lindqvist', 'MARY JOSE', block.replace('LINDQVIST', 'LINDQUIST'), null],
    // The zone's given names and particles are no surname; words under five letters are left out.
    ['only given names printed', 'Mary Jose Lindqvist', 'MARY JOSE', 'MARY JOSE\nLR7975896', null],
    ['a short surname', 'Mary Li', 'MARY', 'LI\nMARY', null],
    ['a particle', 'Fatima van Dijk', 'FATIMA', 'VAN DUK\nFATIMA', null],
    // A given name the zone cut at the field's end (M for METTE), or one typed between the others,
    // is no surname (study seed c49/013: another surname typed, O BRIAIN printed).
    ['a given name the zone cut', 'Aurélie Brünhilde Mette Da Silva', 'AURELIE BRUENHILDE M', 'O BRIAIN\nAURELIE BRUNHILDE METTE', null],
    ['a given name typed between others', 'Aurélie Mette Brünhilde Silva', 'AURELIE BRUENHILDE', 'O BRIAIN\nAURELIE METTE BRUNHILDE', null],
  ])('%s', (_what, typed, zoneGiven, text, expected) => {
    expect(typedSurnameInText(typed, zoneGiven, text)).toBe(expected);
  });
  it('the surname found, the zone given names weighed with it: another person named otherwise does not pass', () => {
    const surname = typedSurnameInText('Anna Lindqvist', 'MARY JOSE', block);
    expect(surname).toBe('LINDQVIST');
    expect(nameMatchScore('Anna Lindqvist', { surname: surname!, givenNames: 'MARY JOSE' })).toBeLessThan(POLICY.nameMatch.review);
    expect(nameMatchScore('Mary Jose Lindqvist', { surname: surname!, givenNames: 'MARY JOSE' })).toBeGreaterThanOrEqual(
      POLICY.nameMatch.review,
    );
  });
});

describe("sameAsZoneName (the print confirms the zone's name: nothing more to read)", () => {
  it.each([
    // The printed name written as a zone writes it: the zone was read right.
    [{ surname: 'OEDEGAARD', givenNames: 'BEATRIZ ANA' }, { surname: 'ODEGARD', givenNames: 'BEATRIZ ANA' }, true],
    [{ surname: 'GARCIA LOPEZ', givenNames: 'INES LUCJA' }, { surname: 'García López', givenNames: 'Inés Łucja' }, true],
    [{ surname: 'O BRIAIN', givenNames: 'THORA' }, { surname: 'Ó Briain', givenNames: 'Þóra' }, true],
    // A letter apart, in either part: the zone or the print misread, more readings may tell which.
    [{ surname: 'DUPONT', givenNames: 'RID' }, { surname: 'Dupont', givenNames: 'Ingrid' }, false],
    [{ surname: 'O BRIAIN', givenNames: 'THORA LUCJA' }, { surname: 'O BRIAIN', givenNames: 'PORA LUCJA' }, false],
    [{ surname: 'ODEGARD', givenNames: 'BEATRIZ ANA' }, { surname: 'DEGARD', givenNames: 'BEATRIZ ANA' }, false],
    // No surname read: nothing confirmed.
    [{ surname: 'LEE', givenNames: '' }, { surname: '', givenNames: '' }, false],
  ])('zone %j, printed %j: %s', (mrz, printed, expected) => {
    expect(sameAsZoneName(mrz, printed)).toBe(expected);
  });
  it("sameAsZoneSurname: the surnames alone, the given names whatever they are (a zone's MCO A for a printed MONICA)", () => {
    const zone = { surname: 'MARTINEZ GARCIA', givenNames: 'MCO A' };
    expect(sameAsZoneSurname(zone, { surname: 'Martínez García', givenNames: 'Mónica' })).toBe(true);
    expect(sameAsZoneName(zone, { surname: 'Martínez García', givenNames: 'Mónica' })).toBe(false);
    expect(sameAsZoneSurname(zone, { surname: 'MARTINEZ GARCI', givenNames: 'MONICA' })).toBe(false);
    expect(sameAsZoneSurname(zone, { surname: '', givenNames: 'MONICA' })).toBe(false);
  });
});

describe("zoneNameInText (the zone's name as a text shows it when no label was read)", () => {
  const reading = "UNITED KINGDOM\nPESIDENCE CARD\n' Sana\nKARKKAINEN\nGouin aa -\nbORA CONCEIGAO\nGBR 06 05 1965";
  it('finds the printed word a misread zone stands for, which then judges the typed name', () => {
    const zone = { surname: 'KAERYVAEINEN', givenNames: 'THORA CONCEICAO' };
    const printed = zoneNameInText(zone, reading);
    expect(printed).toEqual({ surname: 'KARKKAINEN', givenNames: 'THORA CONCEICAO' });
    expect(mrzMisreadOf(zone, printed!)).toBe(true);
    expect(nameMatchScore('thora conceicao karkkainen', printed!)).toBe(1);
    // Two words joined: a surname printed with its particle apart.
    expect(zoneNameInText({ surname: 'OBRLAIN', givenNames: 'ANA' }, 'Surname\nO BRIAIN\nANA')?.surname).toBe('O BRIAIN');
  });
  it('takes the given names from the text where the zone read a digit in them', () => {
    const zone = { surname: 'VAN DIJK', givenNames: 'SOFIE CH9JE' };
    const printed = zoneNameInText(zone, "CARTE D'IDENTITE - IDENTITY CARD\nVAN DIJK |\nSOFIE CHLOE\nEp 11.03.1968");
    expect(printed).toEqual({ surname: 'VAN DIJK', givenNames: 'SOFIE CHLOE' });
    expect(mrzMisreadOf(zone, printed!)).toBe(true);
    expect(nameMatchScore('sofie chloe van dijk', printed!)).toBe(1);
    // Letters only in the zone: kept as the zone read them (the text's BORA is no better a reading of THORA).
    expect(zoneNameInText({ surname: 'VAN DIJK', givenNames: 'SOFIE CHLOE' }, 'VAN DIJK\nSOFIE CHL0E')?.givenNames).toBe('SOFIE CHLOE');
    // Too far from the digit's run in the text: as the zone read them.
    expect(zoneNameInText(zone, 'VAN DIJK\nMARIE ANNE')?.givenNames).toBe('SOFIE CH9JE');
  });
  it("looks past the zone's own lines in the text, and a digit standing alone among the zone's given names", () => {
    // heldout-106d/009: the zone read JUER<4<BRUENHILDE; the page read the zone again, as badly.
    const zone = { surname: 'MAC GIOLLA', givenNames: 'JUER 4 BRUENHILDE MARIE' };
    const text =
      'PASSPORT ITALY\nMAC GIOLLA\n3 } JURGEN BRUNHILDE MARIE\nP<ITAMACKGIOLLA<K<KJUERL. {<BRUENHILDE<MARIE<Z<K\nBB930404511ITA6502218F3006139<<<<<<<04';
    const printed = zoneNameInText(zone, text);
    expect(printed).toEqual({ surname: 'MAC GIOLLA', givenNames: 'JURGEN BRUNHILDE MARIE' });
    expect(mrzMisreadOf(zone, printed!)).toBe(true);
    expect(nameMatchScore('Jürgen Brünhilde Marie Mac Giolla', printed!)).toBeGreaterThanOrEqual(POLICY.nameMatch.review);
  });
  it("never lends the typed surname to another person's document", () => {
    // The zone read right: the text's nearest word is the document's own surname, which another typed surname does not match.
    const printed = zoneNameInText({ surname: 'HANSEN', givenNames: 'ANNA' }, 'Surname HANSEN Given names ANNA');
    expect(printed?.surname).toBe('HANSEN');
    expect(nameMatchScore('Anna Jansen', printed!)).toBeLessThan(POLICY.nameMatch.review);
    // Nothing near the zone's surname in the text: nothing found.
    expect(zoneNameInText({ surname: 'MARCHAND', givenNames: 'CHLOE' }, 'CARTE NATIONALE\nHADDAD\nCHLOE')).toBeNull();
    expect(zoneNameInText({ surname: 'LI', givenNames: 'NA' }, 'LI NA')).toBeNull();
  });
  it('takes, when asked, the given names as printed where the zone misread them as letters', () => {
    // Check set seventh/x034: the zone read OLJIVIA RDOSE; the page printed Olivia Rose under the
    // surname, its labels too faint to read.
    const zone = { surname: 'PEMBERTON', givenNames: 'OLJIVIA RDOSE' };
    const text = 'Pemberton\nolivia Rose\nF GBR 01/01/1987\nC68408940 10/09/2031';
    expect(zoneNameInText(zone, text)?.givenNames).toBe('OLJIVIA RDOSE');
    const printed = zoneNameInText(zone, text, true);
    expect(printed).toEqual({ surname: 'PEMBERTON', givenNames: 'OLIVIA ROSE' });
    expect(mrzMisreadOf(zone, printed!)).toBe(true);
    expect(nameMatchScore('olivia pemberton', printed!)).toBeGreaterThanOrEqual(POLICY.nameMatch.review);
    expect(nameMatchScore('olivia pemberton', zone)).toBeLessThan(POLICY.nameMatch.review);
    // Another person's given names, printed as the zone has them, lend nothing to the typed ones.
    const olga = zoneNameInText({ surname: 'PEMBERTON', givenNames: 'OLGA' }, 'Pemberton\nOlga\nF GBR', true);
    expect(olga).toEqual({ surname: 'PEMBERTON', givenNames: 'OLGA' });
    expect(nameMatchScore('olivia pemberton', olga!)).toBeLessThan(POLICY.nameMatch.review);
    // Nothing in the text within a misreading of the zone's given names: as the zone read them.
    expect(zoneNameInText(zone, 'Pemberton\nMarie Anne', true)?.givenNames).toBe('OLJIVIA RDOSE');
  });
});

describe('zoneSurnameNearTyped (is the printed name worth reading to check a zone that disagrees?)', () => {
  it.each([
    // The zone's surname is the typed one or a misreading of it: the printed name may redeem the zone.
    ['Ingrid Dupont', 'DUPONT', true],
    ["Linh D'Angelo", 'PANGELO', true],
    ['Ingrid Sofie Ødegård', 'OEDEGAARD', true],
    ['Ingrid Sofie Ødegård', 'DEGAARD', true],
    ['Þóra Kärkkäinen', 'KAERYVAEINEN', true],
    ['Ana García', 'GARGIA<LOPEZ'.replace('<', ' '), true],
    ['Ana Garcia Lopez', 'GARCIALOPEZ', true],
    ['Ingrid Dupont', 'DUPONTKINGRID', true], // the << read as K: the given names ran into the surname
    ['Li Wang', 'WANG', true],
    // Another family name altogether: the printed text cannot change the verdict, so it is not read.
    ['Ingrid Sofie Haddad', 'ODEGARD', false],
    ['Chloé Anaïs Haddad', 'MARCHAND', false],
    ['Eva Lindberg', 'LUNDQVIST', false],
    ['Li Wong', 'WANG', true], // one letter off: a misreading as far as the zone can tell
    ['Li Chen', 'WANG', false],
    ['Begoña Bianchi', 'ANCHI', true], // two letters lost at the start of the zone's line
    ['Begoña Bianchi', 'BIANCO', true], // within a third of the word: worth a look; mrzMisreadOf judges
    ['Begoña Bianchi', 'ROSSI', false],
    ['Eva Lindberg', 'LINDQVIST', false],
  ])('typed %s, zone surname %s: %s', (typed, surname, expected) => {
    expect(zoneSurnameNearTyped(typed, { surname, givenNames: '' })).toBe(expected);
  });
});

describe('a printed given name the recogniser was unsure of (DocumentName.unsureWords)', () => {
  const unsure = (...w: string[]) => new Set(w);
  it.each([
    // One letter off and unsure: the typed name misread, approved (0.9).
    ['Eileen Schröder', { surname: 'SCHRODER', givenNames: 'EILCEN', unsureWords: unsure('EILCEN') }, 0.9],
    ['Dagný Lindqvist', { surname: 'LINDQVIST', givenNames: 'LAGNY', unsureWords: unsure('LAGNY') }, 0.9],
    ['Kirsten Soren Novakova', { surname: 'NOVAKOVA', givenNames: 'KIRSTEN SAREN', unsureWords: unsure('SAREN') }, 0.9],
    // One letter off once both are folded: JUERGEN typed (ICAO), JÜRGEN printed and read JIRGEN.
    ['Juergen Dagny Schroeder', { surname: 'SCHRODER', givenNames: 'JIRGEN DAGNY', unsureWords: unsure('JIRGEN') }, 0.9],
    ['Juergen Schroeder', { surname: 'SCHRODER', givenNames: 'JIRGEN' }, 0.7],
    // Read with confidence, one letter off is another name: review (María typed, MARIE printed).
    ['María Lindqvist', { surname: 'LINDQVIST', givenNames: 'MARIE' }, 0.7],
    ['María Lindqvist', { surname: 'LINDQVIST', givenNames: 'MARIE', unsureWords: unsure('LINDQVIST') }, 0.7],
    // Never the surname: another family name one letter off stays a review.
    ['Eileen Schröder', { surname: 'SCHRADER', givenNames: 'EILEEN', unsureWords: unsure('SCHRADER') }, 0.7],
    // Folded too: SCHROEDER typed against SCHRÖDER read SCHRADER is one letter off (review), not another name.
    ['Eileen Schroeder', { surname: 'SCHRADER', givenNames: 'EILEEN' }, 0.7],
    // Short names (Ana, Ina) are not lifted; two letters off is no given name of the document.
    ['Ana Lindqvist', { surname: 'LINDQVIST', givenNames: 'INA', unsureWords: unsure('INA') }, 0.7],
    ['Eileen Schröder', { surname: 'SCHRODER', givenNames: 'EILCCN', unsureWords: unsure('EILCCN') }, 0.3],
    // Another surname is rejected whatever the given names.
    ['Eileen Haddad', { surname: 'SCHRODER', givenNames: 'EILCEN', unsureWords: unsure('EILCEN', 'SCHRODER') }, 0.3],
  ])('typed %s against %o: %s', (typed, doc, expected) => {
    expect(nameMatchScore(typed, doc)).toBeCloseTo(expected, 5);
  });
});

describe('a surname read with letters lost in one place', () => {
  it.each([
    // A glare spot over the start of a zone's name: SCHROEDER read ROEDER (retired held-out 0306/067, rejected at 0.3).
    ['Mei Ángela Þóra Schröder', { surname: 'ROEDER', givenNames: 'MEI ANGELA THORA' }, 0.7],
    // Cut at its end, the zone not full (no truncation to explain it): review too.
    ['Anna Schroeder', { surname: 'SCHROE', givenNames: 'ANNA' }, 0.7],
    // A surname that ends with another family's (Johansen typed, HANSEN printed): review, never a pass.
    ['Anna Johansen', { surname: 'HANSEN', givenNames: 'ANNA' }, 0.7],
    // The read cannot hold more letters than were typed, nor keep fewer than five, nor lose more than three.
    ['Anna Hansen', { surname: 'JOHANSEN', givenNames: 'ANNA' }, 0.3],
    ['Anna Weber', { surname: 'WEBE', givenNames: 'ANNA' }, 0.3],
    ['Anna Oppenheimer', { surname: 'HEIMER', givenNames: 'ANNA' }, 0.3],
    // A glare spot over a printed surname's middle: AL-RASHID read AL-..SHID (heldout-2cb7/248, rejected at 0.5).
    ['María al Rashid', { surname: 'AL SHID', givenNames: 'MARIA' }, 0.7],
    ['Anna Schroeder', { surname: 'SCHDER', givenNames: 'ANNA' }, 0.7],
    // Letters lost in two places, or four in one: another name.
    ['Anna Schroeder', { surname: 'SHROEER', givenNames: 'ANNA' }, 0.3],
    ['Anna Oppenheimer', { surname: 'OPPEMER', givenNames: 'ANNA' }, 0.3],
  ])('typed %s against %o: %s', (typed, doc, expected) => {
    expect(nameMatchScore(typed, doc)).toBeCloseTo(expected, 5);
  });
});

describe('a printed given name read as another letter where the user typed a mark', () => {
  it.each([
    // The recogniser has no class for Ř: a printed KATEŘINA reads KATEFINA, with confidence (heldout-f081/226).
    ['Eileen Kateřina Ayşe Schröder', { surname: 'SCHRODER', givenNames: 'EILEEN KATEFINA AYSE' }, 0.9],
    ['Björk Novak', { surname: 'NOVAK', givenNames: 'BJARK' }, 0.9],
    // Þ is two letters (TH) once normalised: either may be the one read otherwise.
    ['Þóra Novak', { surname: 'NOVAK', givenNames: 'TBORA' }, 0.9],
    // Typed without the mark, the letter is no clue: one letter off read with confidence stays a review.
    ['Eileen Katerina Ayse Schroder', { surname: 'SCHRODER', givenNames: 'EILEEN KATEFINA AYSE' }, 0.7],
    // Off elsewhere than at the mark (María typed, MARIE printed: the mark is on the I).
    ['María Lindqvist', { surname: 'LINDQVIST', givenNames: 'MARIE' }, 0.7],
    // A letter lost or added at the mark is no substitution; a short name is not lifted.
    ['Kateřina Novak', { surname: 'NOVAK', givenNames: 'KATEINA' }, 0.7],
    ['Zoë Novak', { surname: 'NOVAK', givenNames: 'ZOA' }, 0.7],
    // Never the surname: a typed Müller against a printed MILLER is another family, a review.
    ['Anna Müller', { surname: 'MILLER', givenNames: 'ANNA' }, 0.7],
    // Another surname is rejected whatever the given names.
    ['Kateřina Haddad', { surname: 'SCHRODER', givenNames: 'KATEFINA' }, 0.3],
  ])('typed %s against %o: %s', (typed, doc, expected) => {
    expect(nameMatchScore(typed, doc)).toBeCloseTo(expected, 5);
  });
});

describe('sameSurnameRead: two readings of one printed surname', () => {
  it('are the same name: the same letters, spaces and marks aside, or one letter apart in five or more', () => {
    expect(sameSurnameRead('O BRIAIN', 'OBRIAIN')).toBe(true);
    expect(sameSurnameRead('GONÇALVES', 'GONCALVES')).toBe(true);
    expect(sameSurnameRead('GONGALVES', 'GONCALVES')).toBe(true);
    expect(sameSurnameRead('D COLLINS', 'COLLINS')).toBe(true);
  });
  it('are not, two letters apart, or one apart in a short name', () => {
    expect(sameSurnameRead('GONGALVEZ', 'GONCALVES')).toBe(false);
    expect(sameSurnameRead('NEI', 'WEI')).toBe(false);
    expect(sameSurnameRead('LUND', 'LUNA')).toBe(false);
    expect(sameSurnameRead('HADDAD', 'MARCHAND')).toBe(false);
  });
});
