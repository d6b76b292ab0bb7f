import { afterAll, describe, expect, it } from 'vitest';
import { BACKEND, startTestService, type TestService } from '../helpers/test-service.js';
import { onlyIf } from '../helpers/only-if.js';

/**
 * `PIPELINE_CHILDREN` sets how many pipeline processes a worker runs (the default is one per core,
 * at least 2, so 3 differs from it on one, two and four cores alike). Real PostgreSQL only: the
 * setting is the worker's, not the database's, and each child loads the models.
 */
describe('PIPELINE_CHILDREN', onlyIf(BACKEND === 'postgres', 'PostgreSQL only (a worker setting; each child loads the models)'), () => {
  let svc: TestService | undefined;
  afterAll(async () => {
    await svc?.close();
  });

  it('starts that many pipeline children, each ready for a run', async () => {
    svc = await startTestService({ PIPELINE_CHILDREN: '3', PIPELINE_CHILDREN_AT_REST: '3' });
    const deadline = Date.now() + 90_000;
    while (svc.pipeline!.idleCount() < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(svc.pipeline!.idleCount()).toBe(3);
    expect(svc.pipeline!.pids()).toHaveLength(3);
  }, 120_000);
});
