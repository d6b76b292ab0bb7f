import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { slotKey } from '@service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKeyId } from '../../src/storage/blob-encryption.js';
import { DataKeys } from '../../src/storage/data-keys.js';
import { EncryptedBlobStore } from '../../src/storage/encrypted-blob-store.js';
import { FsBlobStore } from '../../src/storage/fs-blob-store.js';
import { Api, fakeJpeg } from '../helpers/api-client.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../helpers/test-service.js';

/**
 * Rotating BLOB_ENCRYPTION_KEY: the service runs with the new key and the old one in
 * BLOB_ENCRYPTION_KEY_PREVIOUS; images sealed under the old one still open, and
 * `npm run admin -- blob-keys rewrap` re-wraps their data keys under the new one, after which
 * the old key opens nothing.
 */
const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/admin.js');
const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ BLOB_ENCRYPTION_KEY: NEW.toString('base64'), BLOB_ENCRYPTION_KEY_PREVIOUS: OLD.toString('base64') });
});
afterAll(() => svc?.close());

function rewrap(): Promise<{ code: number; out: any }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'blob-keys', 'rewrap', '--url', svc.url], { env: { ...process.env, ADMIN_TOKEN } });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.on('close', (code) => resolve({ code: code ?? 1, out: JSON.parse(stdout || 'null') }));
  });
}

describe('master key rotation', () => {
  it('images sealed under the previous key open; rewrap moves their data keys to the new key; the old key then opens nothing', async () => {
    // An image stored before the rotation, under the old key (as the service did before its restart).
    const api = new Api(svc.url);
    const t = await api.tenant(1);
    const init = (await api.init(t.keys.publishable, {})).body;
    const key = slotKey(t.tenantId, init.verificationId, 'selfie');
    const bytes = fakeJpeg(5000);
    const oldStore = new EncryptedBlobStore(new FsBlobStore(path.join(svc.dataDir, 'blobs')), new DataKeys(svc.deps.db, OLD));
    await oldStore.put(key, bytes);
    // And one uploaded now, under the new key.
    expect((await api.upload(init, 'docFront', fakeJpeg(4000))).status).toBe(200);

    const wrappedBy = async () =>
      (
        await svc.deps.db
          .selectFrom('blob_data_keys')
          .select('master_key_id')
          .where('verification_id', '=', init.verificationId)
          .executeTakeFirstOrThrow()
      ).master_key_id;
    expect(await wrappedBy()).toBe(masterKeyId(OLD));
    expect((await svc.deps.blobs.get(key))?.equals(bytes)).toBe(true);

    const first = await rewrap();
    expect(first.code).toBe(0);
    expect(first.out).toMatchObject({ currentKeyId: masterKeyId(NEW), remaining: 0, unknown: 0 });
    expect(first.out.rewrapped).toBeGreaterThanOrEqual(1);
    expect(await wrappedBy()).toBe(masterKeyId(NEW));
    expect((await svc.deps.blobs.get(key))?.equals(bytes)).toBe(true);
    await expect(oldStore.get(key)).rejects.toThrow(/does not hold/);

    // Idempotent: nothing left to do.
    expect((await rewrap()).out).toMatchObject({ rewrapped: 0, remaining: 0 });
  });

  it('a data key under a key the service does not hold is counted, not lost', async () => {
    const stranger = new DataKeys(svc.deps.db, Buffer.alloc(32, 9));
    await stranger.forWriting('vf_strangerstranger1');
    const r = await rewrap();
    expect(r.out).toMatchObject({ rewrapped: 0, remaining: 1, unknown: 1 });
    await svc.deps.db.deleteFrom('blob_data_keys').where('verification_id', '=', 'vf_strangerstranger1').execute();
  });
});
