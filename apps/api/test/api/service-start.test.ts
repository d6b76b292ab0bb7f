import { afterAll, describe, expect, it } from 'vitest';
import { Api } from '../helpers/api-client.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

describe('a service started on PORT=0', () => {
  let svc: TestService;
  afterAll(() => svc?.close());

  it('names the bound port in its slot URLs without changing the configuration it was given', async () => {
    svc = await startTestService();
    const given = svc.env.PUBLIC_BASE_URL; // unset: the default names port 0
    expect(given).toBeUndefined();
    expect(svc.deps.config.publicBaseUrl).toBe(svc.url);
    const api = new Api(svc.url);
    const t = await api.tenant(5);
    const init = await api.init(t.keys.publishableTest, {});
    expect(init.status).toBe(200);
    expect(init.body.uploads.selfie.url.startsWith(`${svc.url}/v1/verify/upload/`)).toBe(true);
  }, 60_000);
});
