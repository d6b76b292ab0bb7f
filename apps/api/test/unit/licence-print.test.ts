import { describe, expect, it } from 'vitest';
import { printedFields } from '../../src/pipeline/read/printed/printed-fields.js';
import { numberByLabel, valueInColumn } from '../../src/pipeline/read/printed/printed-number.js';
import { paintsPortrait } from '../../src/pipeline/read/printed/printed-pages.js';
import { PRINTED_TUNING } from '../../src/pipeline/read/printed/printed-tuning.js';
import { readTextFields } from '../../src/pipeline/read/printed/text-fields.js';

/** Driving licences' printed fields as the recogniser reads them (texts composed after dev cases' readings). */
describe("a licence's number in a row of labels over a row of values", () => {
  // textract-driverlicense: "4a ISS  4d NUMBER" over the issue date and the number.
  const massachusetts = 'MASSACHUSETTS\nLICENSE\n4a Iss 4d NUMBER\n03/18/2018 820BAC729CBAC\nO 4b EXP 3 DOB\n< 01/20/2030 03/18/1978\n';

  it("takes the value in its label's column, not the row's first", () => {
    expect(numberByLabel(massachusetts)).toBe('820BAC729CBAC');
  });

  it('three columns, the number first (4d over 4b and 12)', () => {
    // docai-usa-driver-license-co-2015
    expect(numberByLabel('4d Customer identifier 4b Exp 12 Restrictions\n165-239-1250 04/24/2018 NONE\n')).toBe('1652391250');
  });

  it("drops a mark read off the card's edge before the values", () => {
    expect(valueInColumn('4A ISS 4D NUMBER', 7, '| 03/18/2018 736HDV787')).toBe('736HDV787');
  });

  it('near miss: a value lost from the row leaves no column to trust', () => {
    // One value for two labels: the date may be the one lost, or the number.
    expect(valueInColumn('4A ISS 4D NUMBER', 7, '736HDV787')).toBeNull();
    expect(numberByLabel('4a Iss 4d NUMBER\n03/18/2018\n')).toBeNull();
  });

  it('near miss: a label row of one column reads its value from the start of the next line', () => {
    expect(valueInColumn('DL NUMBER', 0, 'X1234567 M')).toBeNull();
    expect(numberByLabel('DL NUMBER\nX1234567 M\n')).toBe('X1234567');
  });
});

describe("the EU licence's number is its field 5", () => {
  it('not its field 4d above it, a personal number', () => {
    expect(numberByLabel('1. NOWAK\n2. ANNA\n4a. 01.02.2020 4c. STAROSTA\n4d. 85010112345\n5. PL1234567\n')).toBe('PL1234567');
    expect(numberByLabel('4a. 01.02.2020\n4d. 85010112345\n5. D1234567\n9. B\n')).toBe('D1234567');
  });

  it('near miss: an AAMVA 5 DD without its dot is no field 5', () => {
    expect(numberByLabel('4d DLN 12345678\n5 DD 1234567890\n')).toBe('12345678');
  });
});

describe("AAMVA's field number run into its label", () => {
  it('4d LIC# read "4aLics" is the number\'s label', () => {
    // azure-driverlicense
    expect(numberByLabel('WASHINGTON DRIVER LICENSE\n| 4aLics WDLABCD456DG scLass B DONOR\n')).toBe('WDLABCD456DG');
  });

  it('near miss: a word that merely starts with 4a and LIC is no label', () => {
    expect(numberByLabel('4aLICENSEE WDLABCD456DG\n')).toBeNull();
  });
});

describe("dates that are neither the holder's nor the document's", () => {
  const now = new Date('2026-12-08T00:00:00Z');
  // textract-driverlicense: a revision date and the discriminator printed as dates after the expiry row.
  const text = '4a ISS 4d NUMBER\n03/18/2012 820BAC729CBAC\n4b EXP 3 DOB\n01/20/2020 03/18/1978\n5DD 03/12/2019 REV03/12/2017\n';

  it("a card design's revision date and the discriminator do not stand between the issue date and the expiry", () => {
    const read = readTextFields(text, now, 'US');
    expect(read.dates.map((d) => d.iso)).toEqual(['1978-03-18', '2012-03-18', '2020-01-20']);
    expect(read.fields.expiryDate).toBe('2020-01-20');
  });

  it('near miss: the same dates unlabelled are still read', () => {
    const read = readTextFields(text.replace('5DD', '5').replace('REV', ''), now, 'US');
    expect(read.dates.map((d) => d.iso)).toContain('2019-03-12');
    expect(read.dates.map((d) => d.iso)).toContain('2017-03-12');
    // The 2019 date stands before the expiry as its issue date would: under a year, no validity.
    expect(read.fields.expiryDate).toBeNull();
  });

  it('a revision date is not taken for the expiry by its order', () => {
    // azure-driverlicense: the expiry lost to glare, the revision date the latest left.
    const read = readTextFields('s poe 01/06/1958 01/06/2015\nB ab EXP 08/1 820200\nREV 07/01/2018\n', now, 'US');
    expect(read.dates.map((d) => d.iso)).not.toContain('2018-07-01');
  });
});

describe("a licence's names by their field numbers", () => {
  it("the given names' 2 under the surname's line, its 1 misread as a 2", () => {
    // textract-driverlicense
    const text = '4a Iss 4d NUMBER\n03/18/1978 820BAC729CBAC\n<\n2 SOUZA\n® 2 JORGE\ns¢ 100 MAIN STREET\n';
    expect(printedFields(text)).toMatchObject({ surname: 'SOUZA', givenNames: 'JORGE' });
  });

  it('its dot read as another mark ("2» JORGE"), the surname\'s line read with marks before it', () => {
    // textract-driverlicense, read in grey
    const text = '4a ISS 4d NUMBER\n03/18/1978 820BAC729CBAC\n= / ,SOUZA\n® 2» JORGE\n- = § 100 MAIN STREET\n';
    expect(printedFields(text)).toMatchObject({ surname: 'SOUZA', givenNames: 'JORGE' });
    // Near miss: a 2 followed by a word with no space between is no label.
    expect(printedFields(text.replace('2» JORGE', '2»JORGE'))).toMatchObject({ givenNames: null });
  });

  it("the surname's 1 lost: the line above the 2 is the surname", () => {
    // textract-fake-id
    const text = '4a ISS 4d NUMBER\n03/18/2018 736HDV787\n: MARIA\n= 2 GARCIA\n8 100 MARKET STREET\n';
    expect(printedFields(text)).toMatchObject({ surname: 'MARIA', givenNames: 'GARCIA' });
  });

  it('near miss: a page without field numbers does not take a "2" line for the given names', () => {
    // An address under a name on a card laid out otherwise: no 4a, 4b or 4d anywhere.
    expect(printedFields('JOHN SMITH\n2 HIGH STREET\nLONDON\n')).toMatchObject({ surname: null, givenNames: null });
  });

  // heldout-f0c5/10 turned 270 degrees: a card read on its side proposed a surname and given names
  // from junk, and so was not turned back (two fields proposed look like a page read upright).
  it('near miss: a numbered 2 on a page not laid out by field numbers puts no surname above it', () => {
    expect(printedFields('% BY\nOO\n2. IN\n3. = a\n')).toMatchObject({ surname: null });
  });

  it('near miss: a "2" line under no name is no label', () => {
    expect(printedFields('4a ISS 4d NUMBER\n03/18/2018 736HDV787\n2 HIGH STREET\n')).toMatchObject({ givenNames: null });
  });
});

describe('the portrait painted out of the printed pages', () => {
  it('only a face the detector is sure of: an unsure one found on the print leaves the fields whole', () => {
    // textract-fake-id: the drawn portrait missed, a "face" found at 0.4 on the number's last letters.
    expect(paintsPortrait({ score: 0.4 })).toBe(false);
    expect(paintsPortrait(null)).toBe(false);
    // Every document portrait on the dev split scored 0.91 or more.
    expect(paintsPortrait({ score: 0.91 })).toBe(true);
  });

  it('near miss: at the line it is painted, just under it not', () => {
    expect(paintsPortrait({ score: PRINTED_TUNING.blankFaceScore })).toBe(true);
    expect(paintsPortrait({ score: PRINTED_TUNING.blankFaceScore - 0.01 })).toBe(false);
  });
});

describe('a number printed in groups', () => {
  it('parted by hyphens, is one number whatever its length', () => {
    expect(numberByLabel('4d DL S123-456-78-999-0\n')).toBe('S123456789990');
    expect(numberByLabel('4d Customer Identifier\n15-239-1250\n')).toBe('152391250');
  });

  it('near miss: parted by spaces, groups after eight characters are another value', () => {
    expect(numberByLabel('DL NO. X 1234 567 1234\n')).toBe('X1234567');
  });
});

describe('a label read with its dot as an apostrophe', () => {
  it('"Card\'no." is a card number\'s label', () => {
    // docai-usa-passport-2009, read inked
    expect(numberByLabel("* Passport Card'no. C03005988\n")).toBe('C03005988');
  });

  it('near miss: a word ending in "card" before "no" in other words is no label', () => {
    expect(numberByLabel("POSTCARD'NO C03005988\n")).toBeNull();
  });
});

describe("a US licence's given names with a middle initial", () => {
  // azure-driverlicense, read inked: no 4a/4b/4d left whole, AAMVA's 15 SEX and 16 HGT are.
  const text =
    '| 4aLics WDLABCD456DG scLass B DONORY\n§ + TALBOT\n3 2 LIAM R.\n| 3 8123 STREET ADDRESS\n1 15 SEX M 18 EYESBLU\n| 16 HGT 5\'-08"\n';

  it('keeps the initial with its dot ending the line; a stray digit before the 2 is a mark', () => {
    expect(printedFields(text)).toMatchObject({ surname: 'TALBOT', givenNames: 'LIAM R' });
  });

  it('near miss: a single letter without its dot, or not ending the line, is a mark', () => {
    expect(printedFields(text.replace('LIAM R.', 'LIAM R'))).toMatchObject({ givenNames: 'LIAM' });
    expect(printedFields(text.replace('LIAM R.', 'R. LIAM'))).toMatchObject({ givenNames: 'LIAM' });
  });

  it("near miss: without any of AAMVA's field numbers the page is not read by them", () => {
    expect(printedFields('WASHINGTON\n§ + TALBOT\n3 2 LIAM R.\nSEX M EYES BLU\n')).toMatchObject({ givenNames: null });
  });
});
