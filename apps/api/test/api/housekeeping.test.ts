import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSEKEEPING_PERIOD_SECONDS, housekeepingJob } from '../../src/jobs/housekeeping.js';
import { QUEUES } from '../../src/queue/queues.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

describe('housekeeping on the queue', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  }, 60_000);
  afterAll(() => svc?.close());

  const jobs = async (state: string) =>
    Number(
      (
        await sql<{
          n: string;
        }>`select count(*)::text as n from pgboss.job where name = ${QUEUES.housekeeping} and state = ${state}`.execute(svc.deps.db)
      ).rows[0]!.n,
    );

  it('a worker process asks for the period’s pruning at start, and a worker runs it', async () => {
    const until = Date.now() + 30_000;
    while ((await jobs('completed')) < 1) {
      if (Date.now() > until) throw new Error('no housekeeping job completed within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await jobs('completed')).toBeGreaterThanOrEqual(1);
  }, 40_000);

  it('one job per task and period, whichever process asks (the singleton key)', async () => {
    // Stay clear of a period boundary, where a second job is due by design.
    const intoPeriod = (Date.now() / 1000) % HOUSEKEEPING_PERIOD_SECONDS;
    if (intoPeriod > HOUSEKEEPING_PERIOD_SECONDS - 5) await new Promise((r) => setTimeout(r, 6_000));
    const send = () =>
      svc.deps.queue.sendInTransaction(
        svc.deps.db,
        QUEUES.housekeeping,
        { task: 'prune-rate-limits' },
        { singletonKey: 'prune-rate-limits', singletonSeconds: HOUSEKEEPING_PERIOD_SECONDS },
      );
    const first = await send();
    const second = await send();
    expect([first, second].filter((id) => id !== null).length).toBeLessThanOrEqual(1);
    expect(second).toBeNull();
  }, 20_000);

  it('pruning drops rate-limit buckets older than the previous minute and keeps the current ones', async () => {
    const bucketNow = sql<number>`(floor(extract(epoch from ${svc.clock.now()})) / 60)::int`;
    await sql`insert into rate_limit_buckets (key, bucket, count) values ('ip:old', ${bucketNow} - 5, 3), ('ip:now', ${bucketNow}, 3)`.execute(
      svc.deps.db,
    );
    await housekeepingJob(svc.deps)({ task: 'prune-rate-limits' }, { id: 'test', retryCount: 0, retryLimit: 0 });
    const keys = (await svc.deps.db.selectFrom('rate_limit_buckets').select('key').where('key', 'in', ['ip:old', 'ip:now']).execute()).map(
      (r) => r.key,
    );
    expect(keys).toEqual(['ip:now']);
  });
});
