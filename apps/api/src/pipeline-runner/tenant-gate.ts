/**
 * Runs in flight per tenant in this process: a tenant at its cap waits its turn (its job is
 * deferred), so one tenant's slow or hostile images cannot take every pipeline process.
 */
export class TenantGate {
  private readonly running = new Map<string, number>();
  constructor(readonly perTenant: number) {}

  tryEnter(tenantId: string): boolean {
    const n = this.running.get(tenantId) ?? 0;
    if (n >= this.perTenant) return false;
    this.running.set(tenantId, n + 1);
    return true;
  }

  leave(tenantId: string): void {
    const n = (this.running.get(tenantId) ?? 1) - 1;
    if (n <= 0) this.running.delete(tenantId);
    else this.running.set(tenantId, n);
  }
}
