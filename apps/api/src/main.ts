#!/usr/bin/env node
import { ConfigError, loadConfig } from './config/config.js';
import { registerDemo } from './demo/demo-routes.js';
import { ensureDemoTenant, savedAdminToken, type DemoCredentials } from './demo/demo-tenant.js';
import { startService } from './service.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // A development start generates an admin token once and keeps it with the demo credentials.
  const developmentAdminToken = config.adminToken ? undefined : (savedAdminToken(config.dataDir) ?? `adm_${(await import('./util/ids.js')).randomBase62(40)}`);
  if (developmentAdminToken) config.adminToken = developmentAdminToken;

  let demo: DemoCredentials | null = null;
  const service = await startService(config, {
    extraRoutes: config.demo ? [(router) => registerDemo(router, () => demo, () => config.publicBaseUrl)] : [],
  });
  if (config.demo && service.server) demo = await ensureDemoTenant(service.deps.db, config.dataDir, config.adminToken);

  const lines = [
    '',
    `  Identity verification API listening on ${service.url}`,
    `  Database: ${service.database.kind === 'embedded' ? `embedded (PGlite) in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
    `  Public base URL: ${config.publicBaseUrl}`,
  ];
  if (demo) {
    lines.push(
      '',
      `  Demo tenant ${demo.tenantId}`,
      `    publishable (live): ${demo.keys.publishable}`,
      `    secret (live):      ${demo.keys.secret}`,
      `    publishable (test): ${demo.keys.publishableTest}`,
      `    secret (test):      ${demo.keys.secretTest}`,
      '',
      `  Demo page (widget + events + verdict): ${config.publicBaseUrl}/demo`,
    );
  }
  if (developmentAdminToken) lines.push('', `  Operator API token (ADMIN_TOKEN was unset; generated for development): ${config.adminToken}`);
  lines.push('', '  Try:', `    curl -s -X POST ${service.url}/v1/verify/init -H "Authorization: Bearer <publishable key>" -H 'Content-Type: application/json' -d '{}'`, '');
  // Printed on stdout for the operator, deliberately not through the request logger.
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.deps.logger.info({ signal }, 'shutting down');
    await service.stop().catch(() => {});
    service.deps.logger.flush();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
