import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { GENERATED_KEY_FILE } from '../../src/storage/master-key.js';
import { type Api, fakeJpeg, serviceWithTenant, type TenantKeys } from '../helpers/api-client.js';
import type { TestService } from '../helpers/test-service.js';

let svc: TestService;
let api: Api;
let t: TenantKeys;

beforeAll(async () => ({ svc, api, t } = await serviceWithTenant()));
afterAll(() => svc?.close());

/** Every file under a directory, recursively. */
const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));

describe('images are encrypted at rest', () => {
  it('an uploaded image is stored sealed (no JPEG signature, none of its bytes) and read back whole', async () => {
    const init = (await api.init(t.keys.publishable, {})).body;
    const bytes = fakeJpeg(6000);
    expect((await api.upload(init, 'docFront', bytes)).status).toBe(200);
    const stored = filesUnder(path.join(svc.dataDir, 'blobs')).filter((f) => f.includes(init.verificationId));
    expect(stored).toHaveLength(1);
    const onDisk = fs.readFileSync(stored[0]!);
    expect(onDisk.subarray(0, 4).toString('latin1')).toBe('SVB1');
    expect(onDisk[0]).not.toBe(0xff);
    expect(onDisk.includes(bytes.subarray(1000, 1032))).toBe(false);
    expect(await svc.deps.blobs.get(init.uploads.docFront.key)).toEqual(bytes);
  });

  it('erasing a verification destroys its data key: its images open nowhere (crypto-shredding)', async () => {
    const init = (await api.init(t.keys.publishable, {})).body;
    expect((await api.upload(init, 'selfie', fakeJpeg(3000))).status).toBe(200);
    const keyRows = () =>
      svc.deps.db.selectFrom('blob_data_keys').select('verification_id').where('verification_id', '=', init.verificationId).execute();
    expect(await keyRows()).toHaveLength(1);
    // A copy of the sealed object taken before erasure (a backup) does not help without the key.
    const file = filesUnder(path.join(svc.dataDir, 'blobs')).find((f) => f.includes(init.verificationId))!;
    const copy = fs.readFileSync(file);
    await svc.deps.blobs.deletePrefix(`verif/${t.tenantId}/${init.verificationId}`);
    expect(await keyRows()).toHaveLength(0);
    expect(await svc.deps.blobs.get(init.uploads.selfie.key)).toBeNull();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, copy);
    expect(await svc.deps.blobs.get(init.uploads.selfie.key)).toBeNull();
  });

  it('a single process without BLOB_ENCRYPTION_KEY keeps a generated key under DATA_DIR, readable by its owner only', () => {
    const file = path.join(svc.dataDir, GENERATED_KEY_FILE);
    expect(Buffer.from(fs.readFileSync(file, 'utf8'), 'base64')).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
  });

  it('split processes must share a key: PROCESS_ROLE api or worker without BLOB_ENCRYPTION_KEY is a configuration error', () => {
    const base = { DATABASE_URL: 'postgres://x@127.0.0.1/db' };
    expect(() => loadConfig({ ...base, PROCESS_ROLE: 'worker' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, PROCESS_ROLE: 'api', BLOB_ENCRYPTION_KEY: 'c2hvcnQ=' })).toThrow(/32 bytes/);
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ ...base, PROCESS_ROLE: 'api', BLOB_ENCRYPTION_KEY: key }).blobEncryptionKey).toEqual(Buffer.alloc(32, 7));
  });
});
