/** The document layouts of the real-document set, and the fields scored on each. */
export const LAYOUTS = ['TD1', 'TD2', 'TD3', 'MRV-A', 'MRV-B', 'FR-ID-2x36', 'printed-only', 'US-DL', 'EU-DL'] as const;
export type Layout = (typeof LAYOUTS)[number];

export const FIELDS = ['fullName', 'documentNumber', 'dateOfBirth', 'expiryDate', 'nationality'] as const;
export type Field = (typeof FIELDS)[number];

/** "Number, birth date and expiry all right": the headline figure. */
export const CORE_FIELDS = ['documentNumber', 'dateOfBirth', 'expiryDate'] as const satisfies readonly Field[];

export const SPLITS = ['dev', 'test'] as const;
export type Split = (typeof SPLITS)[number];
