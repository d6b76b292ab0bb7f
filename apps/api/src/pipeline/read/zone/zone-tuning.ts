/**
 * The zone reader's thresholds, in one place. Each says what it trades; change one only with the
 * evaluation figures that justify it (docs/evaluation.md).
 */
export const ZONE_TUNING = {
  /**
   * Checks that must hold (document number, birth, expiry, composite) for lines to be taken for a
   * zone at all. A line of junk passes one check digit in ten by chance, and the zone reader tries
   * dozens of fittings: two holding is chance in a hundred per fitting, and every real zone read
   * well enough to use keeps two.
   */
  minChecksHeld: 2,
  /** Digits a name field may show (look-alikes of its letters) and still be one: more is a line of numbers. */
  mostDigitsInName: 3,
  /** Look-alike characters of a document number tried for its check digit: at most 2^this variants. */
  mostNumberSwaps: 6,
  /**
   * A repair the composite check digit does not bear out is taken only where its swaps could
   * hardly have made the number's check hold by chance (`chanceOfHolding`): one swap among two
   * look-alikes (19%) is taken, one among three (27%) or two among four (65%) is not, and the
   * number is left as read, its check failing, for the print and the other readings to decide.
   */
  mostRepairChance: 0.2,
  /** A zone surname of fewer letters may be a longer one cut by a glare spot: not settled without the print. */
  sureSurnameLetters: 4,
  /** How sure the zone makes each proposal. */
  confidence: {
    /** A field whose own check digit holds as read. */
    checked: 0.99,
    /** Held only once look-alikes were swapped. */
    repaired: 0.9,
    /** Its check digit fails: proposed for the fusion to weigh, never reported on its own. */
    failed: 0.2,
    /** A name field read cleanly (no digit in it, a zone's start and a known state before it); no check digit covers names. */
    sureName: 0.85,
    /** A name field with one lesser sign of a misreading (zone-fields.ts): reported, but the print is read to confirm it. */
    shortName: 0.65,
    unsureName: 0.4,
    /** A nationality read as no code, one character off the issuing state's. */
    stateForNationality: 0.7,
    knownState: 0.9,
    unknownState: 0.4,
  },
} as const;

/** Where on a side the zone is looked for. */
export const ZONE_REGIONS = {
  /** The first look: the bottom 40% of the levelled side. */
  bottom: 0.6,
  /** A squared-up side's zone: its lower half (a TD1 card's zone fills up to its lower 45%). */
  squared: 0.5,
  /**
   * A side scaled up more than this to be read (under 800 px wide) has its zone read in grey as
   * well as binarised: upscaled strokes are too light for the binarisation's contrast.
   */
  greyWhenScaledBy: 1.5,
} as const;
