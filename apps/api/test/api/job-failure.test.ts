import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '../../src/queue/job-queue.js';
import { Api } from '../helpers/api-client.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let svc: TestService;
let api: Api;
let runs = 0;

beforeAll(async () => {
  // A pipeline that never answers: only the queue's expiry ends its job. One attempt, no retry.
  svc = await startTestService(
    {},
    {
      queueTuning: { verificationExpireSeconds: 2, maintenanceIntervalSeconds: 1 },
      pipeline: {
        run: () => {
          runs++;
          return new Promise(() => {});
        },
      },
    },
  );
  await svc.deps.queue.boss.updateQueue(QUEUES.verification, { retryLimit: 0 } as never);
  api = new Api(svc.url);
});
afterAll(() => svc?.close());

describe('a verification job that fails for good', () => {
  it('ends the verification failed with a failure code and verification.failed, never processing forever', async () => {
    const t = await api.tenant(5);
    const init = await api.prepared(t.keys.publishable, { submittedFullName: 'Ana Martinez' });
    expect((await api.submit(t.keys.secret, init)).status).toBe(202);
    const done = await api.waitForStatus(t.keys.secret, init.verificationId, ['completed', 'failed'], 20_000);
    expect(done.body.status).toBe('failed');
    expect(runs).toBe(1);
    const row = await svc.deps.db
      .selectFrom('verifications')
      .select('failure_code')
      .where('id', '=', init.verificationId)
      .executeTakeFirstOrThrow();
    expect(row.failure_code).toBe('pipeline_error');
    const events = await svc.deps.db
      .selectFrom('webhook_events')
      .select('type')
      .where('verification_id', '=', init.verificationId)
      .execute();
    expect(events.map((e) => e.type)).toEqual(['verification.failed']);
  }, 30_000);
});
