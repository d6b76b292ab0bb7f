/** A benchmark tenant's keys, as the operator API returns them on creation. */
export interface BenchTenant {
  tenantId: string;
  keys: { publishable: string; secret: string; publishableTest: string; secretTest: string };
}

/** Creates `count` tenants with `credits` each through the operator API, 20 requests at a time. */
export async function createTenants(baseUrl: string, adminToken: string, count: number, credits: number): Promise<BenchTenant[]> {
  const tenants: BenchTenant[] = [];
  for (let i = 0; i < count; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, count - i) }, () =>
        fetch(`${baseUrl}/admin/v1/tenants`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'bench', credits }),
        }).then((r) => r.json() as Promise<BenchTenant>),
      ),
    );
    tenants.push(...batch);
  }
  return tenants;
}
