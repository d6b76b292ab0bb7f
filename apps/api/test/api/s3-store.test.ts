import fs from 'node:fs';
import pg from 'pg';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/storage/blob-store.js';
import { FsBlobStore } from '../../src/storage/fs-blob-store.js';
import { BlobStoreUnavailableError } from '../../src/storage/blob-store.js';
import { S3BlobStore } from '../../src/storage/s3-blob-store.js';
import { Api, call, expectErrorShape, fakeJpeg } from '../helpers/api-client.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';
import { radosgwInstalled, startRadosgw, type Radosgw } from '../helpers/radosgw.js';
import { killHard, spawnService, type SpawnedService } from '../helpers/spawn-service.js';
import {
  ADMIN_TOKEN,
  BACKEND,
  createTestDatabase,
  startTestService,
  TEST_BLOB_ENCRYPTION_KEY,
  type TestService,
} from '../helpers/test-service.js';
import { onlyIf } from '../helpers/only-if.js';

/**
 * Images on S3, for real: Debian's Ceph radosgw on loopback (installed by the test command), never
 * a mock. The blob store contract is run against the local store and S3 alike; then the service
 * with BLOB_STORE=s3: sealed objects, nothing under DATA_DIR, the store unreachable (503 and jobs
 * that wait), and a split deployment (two API processes and a worker) reaching a verdict.
 */
let rgw: Radosgw;
let s3: S3Client;
const BUCKET = 'service-images';
const fsRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'blob-fs-'));

const s3Env = () => ({
  BLOB_STORE: 's3',
  S3_ENDPOINT: rgw.endpoint,
  S3_BUCKET: BUCKET,
  AWS_ACCESS_KEY_ID: rgw.accessKeyId,
  AWS_SECRET_ACCESS_KEY: rgw.secretAccessKey,
});
const s3Store = () =>
  new S3BlobStore({
    endpoint: rgw.endpoint,
    bucket: BUCKET,
    region: 'us-east-1',
    credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
    requestTimeoutMs: 3_000,
  });
const objectKeys = async (prefix = '') =>
  ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? []).map((o) => o.Key!);
const objectBytes = async (key: string) =>
  Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToByteArray());

beforeAll(async () => {
  if (!radosgwInstalled()) throw new Error('radosgw is not installed: npm test installs it (scripts/ensure-test-packages.mjs)');
  rgw = await startRadosgw();
  s3 = new S3Client({
    endpoint: rgw.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
  });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
}, 120_000);

afterAll(async () => {
  s3?.destroy();
  await rgw?.stop();
  fs.rmSync(fsRoot, { recursive: true, force: true });
}, 60_000);

describe.each([
  ['local directory', () => new FsBlobStore(fsRoot) as BlobStore],
  ['S3 (radosgw)', () => s3Store() as BlobStore],
])('the blob store contract: %s', (_name, make) => {
  it('put, get, exists; a missing key is null and false; a put replaces', async () => {
    const store = make();
    const key = 'verif/t1/v1/doc_front.jpg';
    expect(await store.get(key)).toBeNull();
    expect(await store.exists(key)).toBe(false);
    await store.put(key, Buffer.from('first'));
    await store.put(key, Buffer.from('second, longer'));
    expect((await store.get(key))?.toString()).toBe('second, longer');
    expect(await store.exists(key)).toBe(true);
    expect(await store.ready()).toBe(true);
  });

  it('deletePrefix removes one verification and leaves its neighbours (v1 is not v10)', async () => {
    const store = make();
    const big = fakeJpeg(2 * 1024 * 1024);
    await store.put('verif/t2/v1/doc_front.jpg', big);
    await store.put('verif/t2/v1/selfie.jpg', Buffer.from('b'));
    await store.put('verif/t2/v10/selfie.jpg', Buffer.from('c'));
    expect((await store.get('verif/t2/v1/doc_front.jpg'))?.equals(big)).toBe(true); // toEqual on 2 MiB is slow
    await store.deletePrefix('verif/t2/v1');
    expect(await store.exists('verif/t2/v1/doc_front.jpg')).toBe(false);
    expect(await store.exists('verif/t2/v1/selfie.jpg')).toBe(false);
    expect((await store.get('verif/t2/v10/selfie.jpg'))?.toString()).toBe('c');
    await store.deletePrefix('verif/t2/nothing-here');
  });
});

describe('the service on S3', () => {
  let svc: TestService;
  let api: Api;
  let t: Awaited<ReturnType<Api['tenant']>>;
  // The worker's reads wait here while closed, so a test can take the store down between a
  // submit (which checks the images are there) and the worker reading them.
  let readsOpen: Promise<void> = Promise.resolve();
  beforeAll(async () => {
    const real = s3Store();
    const gated: BlobStore = {
      put: (k, b) => real.put(k, b),
      get: async (k) => {
        await readsOpen;
        return real.get(k);
      },
      exists: (k) => real.exists(k),
      deletePrefix: (p) => real.deletePrefix(p),
      ready: () => real.ready(),
    };
    svc = await startTestService(s3Env(), {
      blobs: gated,
      pipeline: {
        // Stands in for the vision pipeline: the worker really read both images back from S3.
        run: async (_request, images) => ({
          verdict: images.docFront.length === 9000 && images.selfie.length === 7000 ? 'approved' : 'rejected',
          reasons: [],
          scores: { document_ocr: 1, name_match: 1, face_match: 1, image_quality: 1, liveness: null },
          fieldsExtracted: { fullName: null, documentNumber: null, dateOfBirth: null, expiryDate: null, nationality: null },
        }),
      },
    });
    api = new Api(svc.url);
    t = await api.tenant(100);
  }, 60_000);
  afterAll(() => svc?.close());

  it('images go to the bucket sealed (no JPEG signature, none of their bytes), none under DATA_DIR; the worker reads them back', async () => {
    const init = (await api.init(t.keys.publishable, { submittedFullName: 'Ana Martinez' })).body;
    const front = fakeJpeg(9000);
    expect((await api.upload(init, 'docFront', front)).status).toBe(200);
    expect((await api.upload(init, 'selfie', fakeJpeg(7000))).status).toBe(200);
    const keys = await objectKeys(`verif/${t.tenantId}/${init.verificationId}/`);
    expect(keys.sort()).toEqual([init.uploads.docFront.key, init.uploads.selfie.key].sort());
    const stored = await objectBytes(init.uploads.docFront.key);
    expect(stored.subarray(0, 4).toString('latin1')).toBe('SVB1');
    expect(stored.includes(front.subarray(100, 132))).toBe(false);
    expect(fs.existsSync(path.join(svc.dataDir, 'blobs'))).toBe(false);

    expect((await api.submit(t.keys.secret, init)).status).toBe(202);
    const done = await api.waitForStatus(t.keys.secret, init.verificationId, ['completed', 'failed'], 30_000);
    expect(done.body).toMatchObject({ status: 'completed', verdict: 'approved' });
  });

  it('the store unreachable: uploads answer 503 backend_unavailable with retry_after, readiness says why, a submitted job waits and then completes', async () => {
    const init = (await api.init(t.keys.publishable, {})).body;
    expect((await api.upload(init, 'docFront', fakeJpeg(9000))).status).toBe(200);
    expect((await api.upload(init, 'selfie', fakeJpeg(7000))).status).toBe(200);
    const other = (await api.init(t.keys.publishable, {})).body;
    const third = (await api.init(t.keys.publishable, {})).body;
    expect((await api.upload(third, 'docFront', fakeJpeg(9000))).status).toBe(200);
    expect((await api.upload(third, 'selfie', fakeJpeg(7000))).status).toBe(200);
    let open!: () => void;
    readsOpen = new Promise((r) => (open = r));
    expect((await api.submit(t.keys.secret, init)).status).toBe(202);
    await rgw.pause();
    open();
    try {
      const r = await api.upload(other, 'docFront', fakeJpeg(4000));
      expectErrorShape(r, 503, 'backend_unavailable');
      expect(r.body.detail.retry_after).toBeGreaterThan(0);
      expect(r.headers.get('retry-after')).toBe(String(r.body.detail.retry_after));
      const ready = await call(svc.url, 'GET', '/health/ready');
      expect(ready.status).toBe(503);
      expect((await call(svc.url, 'GET', '/health')).status).toBe(200);
      // A submit needs to see its images: 503 too, while the one submitted before waits (deferred, not failed).
      expectErrorShape(await api.submit(t.keys.secret, third), 503, 'backend_unavailable');
      // Longer than the queue's three retries with backoff (2 + 4 + 8 s): only a deferral survives it.
      await new Promise((r) => setTimeout(r, 16_000));
      expect((await api.result(t.keys.secret, init.verificationId)).body.status).not.toBe('failed');
    } finally {
      await rgw.resume();
    }
    expect((await api.upload(other, 'docFront', fakeJpeg(4000))).status).toBe(200);
    const done = await api.waitForStatus(t.keys.secret, init.verificationId, ['completed', 'failed'], 60_000);
    expect(done.body).toMatchObject({ status: 'completed', verdict: 'approved' });
    expect((await call(svc.url, 'GET', '/health/ready')).status).toBe(200);
  }, 120_000);

  it('a client of the store meets an unreachable server as BlobStoreUnavailableError, never a hang', async () => {
    const store = s3Store();
    await rgw.pause();
    try {
      const started = Date.now();
      await expect(store.get('verif/x/y/selfie.jpg')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      expect(await store.ready()).toBe(false);
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      await rgw.resume();
    }
    expect(await store.ready()).toBe(true);
  }, 90_000);
});

describe('a split deployment on S3', onlyIf(BACKEND === 'postgres', 'PostgreSQL only (a split deployment needs it)'), () => {
  const processes: SpawnedService[] = [];
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'split-s3-'));
  afterAll(async () => {
    for (const p of processes) await killHard(p);
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  let envFor: (role: string) => Record<string, string>;

  it('uploaded through one API process, submitted through another, judged by a worker on a third', async () => {
    database = await createTestDatabase();
    const env = (envFor = (role: string) => ({
      ...s3Env(),
      PROCESS_ROLE: role,
      DATABASE_URL: database.url,
      ADMIN_TOKEN,
      BLOB_ENCRYPTION_KEY: TEST_BLOB_ENCRYPTION_KEY,
      DATA_DIR: path.join(dataDir, role + processes.length),
      // The webhook receiver of the last test listens on loopback.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    }));
    // Started at once on an empty database: migrations and queue setup run once, under a lock.
    const [api1, api2, worker] = await Promise.all([
      spawnService(env('api'), undefined, 90_000),
      spawnService(env('api'), undefined, 90_000),
      spawnService(env('worker'), undefined, 90_000),
    ]);
    processes.push(api1, api2, worker);
    const a = new Api(api1.url);
    const b = new Api(api2.url);
    const t = await a.tenant(10);
    // Live mode: the worker's real vision pipeline judges the images (random bytes: unreadable).
    const init = (await a.init(t.keys.publishable, { submittedFullName: 'Ana Martinez' })).body;
    expect((await a.upload(init, 'docFront', fakeJpeg(9000))).status).toBe(200);
    expect((await a.upload(init, 'selfie', fakeJpeg(7000))).status).toBe(200);
    expect((await b.submit(t.keys.secret, init)).status).toBe(202);
    const done = await b.waitForStatus(t.keys.secret, init.verificationId, ['completed', 'failed'], 120_000);
    expect(done.body).toMatchObject({ status: 'completed', verdict: 'rejected', reasons: expect.arrayContaining(['document_unreadable']) });
    // No image on any process's disk.
    const files = (dir: string): string[] =>
      fs.existsSync(dir)
        ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [e.name]))
        : [];
    expect(files(dataDir).filter((f) => f.endsWith('.jpg'))).toEqual([]);
    expect((await objectKeys(`verif/${t.tenantId}/${init.verificationId}/`)).length).toBe(2);
  }, 240_000);

  it('ten submits, the worker killed with -9 mid-run: a new worker finishes every one within 90 s, each charged once', async () => {
    const [api1, , worker] = processes;
    const { buildSmokeSet } = await import('@service/fixtures/smoke-set');
    const genuine = (await buildSmokeSet()).find((c) => c.cls === 'genuine')!;
    const a = new Api(api1!.url);
    const t = await a.tenant(11);
    const inits: any[] = [];
    for (let i = 0; i < 10; i++) {
      const init = (await a.init(t.keys.publishable, { submittedFullName: genuine.typedName })).body;
      expect((await a.upload(init, 'docFront', genuine.docFront)).status).toBe(200);
      expect((await a.upload(init, 'selfie', genuine.selfie)).status).toBe(200);
      inits.push(init);
    }
    // Submitted together: the worker runs two at a time, the rest wait in the queue.
    expect((await Promise.all(inits.map((init) => a.submit(t.keys.secret, init)))).map((r) => r.status)).toEqual(Array(10).fill(202));
    const ids = inits.map((i) => i.verificationId as string);
    // Read from the database: polling the API this often would meet the per-IP limit.
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const statuses = async () =>
        (await db.query<{ status: string }>('select status from verifications where id = any($1)', [ids])).rows.map((r) => r.status);
      // Wait for runs in flight, then kill the only worker.
      const until = Date.now() + 60_000;
      while (!(await statuses()).includes('processing') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      await killHard(worker!);
      const killedAt = Date.now();
      const orphaned = (await statuses()).filter((s) => s === 'processing' || s === 'queued').length;
      expect(orphaned).toBeGreaterThan(0);

      processes.push(await spawnService(envFor('worker'), undefined, 90_000));
      while ((await statuses()).some((s) => s !== 'completed' && s !== 'failed') && Date.now() - killedAt < 90_000) {
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(Date.now() - killedAt).toBeLessThan(90_000);
      for (const id of ids) expect((await a.result(t.keys.secret, id)).body).toMatchObject({ status: 'completed', verdict: 'approved' });
    } finally {
      await db.end();
    }
    // Each charged once, retries included.
    expect((await a.admin('GET', `/admin/v1/tenants/${t.tenantId}`)).body.credits).toBe(1);
  }, 300_000);

  it('the worker killed with -9 mid-delivery: another worker sends the same event again', async () => {
    const receiver = await new HttpsReceiver().start();
    try {
      receiver.responder = (n) => (n === 0 ? 'hang' : { status: 200 });
      const a = new Api(processes[0]!.url);
      const t = await a.tenant(1);
      await a.admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, {
        webhook: { url: receiver.url(), secret: 'split-webhook-secret-0123456789' },
      });
      const init = await a.prepared(t.keys.publishableTest, { submittedFullName: 'Test Approve' });
      expect((await a.submit(t.keys.secretTest, init)).status).toBe(202);
      await receiver.waitFor(1, 30_000);
      // The worker holding the delivery dies while the receiver has not answered.
      await killHard(processes[processes.length - 1]!);
      processes.push(await spawnService(envFor('worker'), undefined, 90_000));
      const reqs = await receiver.waitFor(2, 60_000);
      expect(reqs[1]!.headers['service-event-id']).toBe(reqs[0]!.headers['service-event-id']);
      expect(reqs[1]!.body).toBe(reqs[0]!.body);
    } finally {
      await receiver.stop();
    }
  }, 180_000);

  it('no process of the deployment printed a deprecation warning (on Node 22 and later, no warning at all)', () => {
    expect(processes.length).toBeGreaterThanOrEqual(3);
    const major = Number(process.versions.node.split('.')[0]);
    for (const p of processes) {
      expect(p.output()).not.toMatch(/DeprecationWarning/);
      // On Node 20 the AWS SDK warns that its releases from 2027 need Node 22: expected there.
      if (major >= 22) expect(p.output()).not.toMatch(/Warning:/);
    }
  });
});
