import { LIMITS } from '@service/contract';
import { type Api, type Res, type TenantKeys } from './api-client.js';

/** A request that has not answered after this long counts as hung. */
const HUNG_MS = 20_000;

export interface Accepted {
  verificationId: string;
  secretKey: string;
  acceptedAt: number;
}

/**
 * Test-mode verifications (init, two uploads, submit) started at a steady rate, spread over
 * enough tenants to stay under the per-tenant limits. A flow that gets a 503 stops there (a client
 * would retry later); every status is counted, and every 202 is remembered to check its verdict.
 */
export class VerificationLoad {
  readonly statuses = new Map<number, number>();
  /** Requests that got no HTTP answer at all (connection refused or reset). */
  networkErrors = 0;
  hung = 0;
  /** Answers that were neither 2xx nor 503 `backend_unavailable` with `Retry-After`. */
  wrong = 0;
  readonly accepted: Accepted[] = [];
  /** Times (ms) at which an init succeeded: recovery is the first one after an outage ends. */
  readonly initOk: number[] = [];
  /** Bodies of answers that were neither 2xx nor 503 (at most 20 kept, for the failure message). */
  readonly unexpected: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly running = new Set<Promise<void>>();
  private next = 0;

  private constructor(
    readonly api: Api,
    readonly tenants: TenantKeys[],
    readonly perSecond: number,
  ) {}

  static async create(api: Api, perSecond: number, webhookUrl: string): Promise<VerificationLoad> {
    const count = Math.ceil((perSecond * 60) / (LIMITS.perTenantPerMinute.submit * 0.8));
    const tenants: TenantKeys[] = [];
    for (let i = 0; i < count; i++) {
      const t = await api.tenant(1000);
      const r = await api.admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, {
        webhook: { url: webhookUrl, secret: 'outage-test-secret-0123456789' },
      });
      if (r.status !== 200) throw new Error(`webhook setup failed: ${r.status}`);
      tenants.push(t);
    }
    return new VerificationLoad(api, tenants, perSecond);
  }

  private async request(send: () => Promise<Res>): Promise<Res | null> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const res = await Promise.race([
        send(),
        new Promise<'hung'>((resolve) => {
          timer = setTimeout(() => resolve('hung'), HUNG_MS);
        }),
      ]);
      if (res === 'hung') {
        this.hung++;
        return null;
      }
      this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
      const ok = res.status >= 200 && res.status < 300;
      if (!ok && (res.status !== 503 || res.body?.error !== 'backend_unavailable' || !res.headers.get('retry-after'))) {
        this.wrong++;
        if (this.unexpected.length < 20) this.unexpected.push(`${res.status} ${JSON.stringify(res.body)}`);
      }
      return res;
    } catch {
      this.networkErrors++;
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  private async flow(t: TenantKeys): Promise<void> {
    const init = await this.request(() => this.api.init(t.keys.publishableTest, { submittedFullName: 'Test Approve' }));
    if (init?.status !== 200) return;
    this.initOk.push(Date.now());
    for (const slot of ['docFront', 'selfie'] as const) {
      const up = await this.request(() => this.api.upload(init.body, slot));
      if (up?.status !== 200) return;
    }
    const submit = await this.request(() => this.api.submit(t.keys.secretTest, init.body));
    if (submit?.status === 202) {
      this.accepted.push({ verificationId: init.body.verificationId, secretKey: t.keys.secretTest, acceptedAt: Date.now() });
    }
  }

  start(): void {
    this.timer = setInterval(() => {
      const t = this.tenants[this.next++ % this.tenants.length]!;
      const p = this.flow(t).finally(() => this.running.delete(p));
      this.running.add(p);
    }, 1000 / this.perSecond);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.running]);
  }

  count(status: number): number {
    return this.statuses.get(status) ?? 0;
  }

  /** Seconds from `since` to the first successful init after it, or null if none. */
  recoveredAfter(since: number): number | null {
    const first = this.initOk.find((t) => t >= since);
    return first === undefined ? null : (first - since) / 1000;
  }
}
