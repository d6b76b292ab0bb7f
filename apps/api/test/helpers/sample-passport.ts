import path from 'node:path';
import { FACES_DIR, passportPage } from '@service/fixtures/synthetic-documents';
import { composeTd3 } from '@service/fixtures/mrz-compose';

/**
 * The unit tests' passport: Ana Lucía Martínez García's data page (TD3), her portrait the
 * astronaut's photograph unless another is given. `expiry` is the MRZ's YYMMDD (printed as
 * DD MM 20YY); `nationality` the printed one (the zone always holds ESP).
 */
export async function samplePassport(opts: { expiry?: string; portrait?: string; nationality?: string } = {}): Promise<{
  page: Buffer;
  mrz: [string, string];
}> {
  const expiry = opts.expiry ?? '310514';
  const mrz = composeTd3({
    issuingState: 'ESP',
    surname: 'Martinez Garcia',
    givenNames: 'Ana Lucia',
    documentNumber: 'PAB123456',
    nationality: 'ESP',
    birthDate: '900228',
    sex: 'F',
    expiryDate: expiry,
  });
  const page = await passportPage({
    surname: 'MARTÍNEZ GARCÍA',
    givenNames: 'ANA LUCÍA',
    documentNumber: 'PAB123456',
    nationality: opts.nationality ?? 'ESP',
    dateOfBirth: '28 02 1990',
    expiryDate: `${expiry.slice(4)} ${expiry.slice(2, 4)} 20${expiry.slice(0, 2)}`,
    mrz,
    portrait: opts.portrait ?? path.join(FACES_DIR, 'astronaut.png'),
  });
  return { page, mrz };
}
