import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Envelope encryption of stored images (decisions.md, "Storage, retention and erasure"): each
 * verification has its own 256-bit data key; images are sealed with it (AES-256-GCM), and the data
 * key is stored only wrapped by the deployment's key (`BLOB_ENCRYPTION_KEY`, AES-256-GCM too).
 * Destroying a verification's wrapped data key makes its images unreadable wherever copies lie.
 */

/** What every sealed object starts with ("SVB" + format version): never a JPEG's FF D8 FF. */
export const SEALED_MAGIC = Buffer.from('SVB1', 'latin1');
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

export class BlobDecryptionError extends Error {}

function seal(key: Buffer, plaintext: Buffer, aad: Buffer): { iv: Buffer; body: Buffer; tag: Buffer } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, body, tag: cipher.getAuthTag() };
}

function open(key: Buffer, iv: Buffer, body: Buffer, tag: Buffer, aad: Buffer): Buffer {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new BlobDecryptionError('sealed data does not open with this key (tampered, or another key)');
  }
}

/**
 * An image sealed under its verification's data key: magic, IV, ciphertext, tag. The storage key
 * is bound as additional data, so an object copied to another slot does not open there.
 */
export function sealBlob(dataKey: Buffer, storageKey: string, plaintext: Buffer): Buffer {
  const { iv, body, tag } = seal(dataKey, plaintext, Buffer.from(storageKey));
  return Buffer.concat([SEALED_MAGIC, iv, body, tag]);
}

export const isSealed = (stored: Buffer) =>
  stored.length >= SEALED_MAGIC.length + IV_BYTES + TAG_BYTES && stored.subarray(0, 4).equals(SEALED_MAGIC);

export function openBlob(dataKey: Buffer, storageKey: string, sealed: Buffer): Buffer {
  if (!isSealed(sealed)) throw new BlobDecryptionError('not a sealed object');
  const iv = sealed.subarray(4, 4 + IV_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  return open(dataKey, iv, sealed.subarray(4 + IV_BYTES, sealed.length - TAG_BYTES), tag, Buffer.from(storageKey));
}

/** A data key wrapped by the deployment's key, bound to its verification: IV, ciphertext, tag. */
export function wrapDataKey(masterKey: Buffer, verificationId: string, dataKey: Buffer): Buffer {
  const { iv, body, tag } = seal(masterKey, dataKey, Buffer.from(verificationId));
  return Buffer.concat([iv, body, tag]);
}

export function unwrapDataKey(masterKey: Buffer, verificationId: string, wrapped: Buffer): Buffer {
  return open(
    masterKey,
    wrapped.subarray(0, IV_BYTES),
    wrapped.subarray(IV_BYTES, wrapped.length - TAG_BYTES),
    wrapped.subarray(wrapped.length - TAG_BYTES),
    Buffer.from(verificationId),
  );
}

/** A short, non-secret name of a master key (stored beside each wrapped key, for rotation). */
export function masterKeyId(masterKey: Buffer): string {
  return createHash('sha256').update('blob-master-key-id:').update(masterKey).digest('hex').slice(0, 16);
}

export const newDataKey = () => randomBytes(KEY_BYTES);
