#!/usr/bin/env node
// First: its handlers must be installed before any other module (and its handlers) loads.
import { setFatalLogger } from './fatal-errors.js';
import { ConfigError, loadConfig } from './config/config.js';
import { DatabaseStartError } from './db/connect.js';
import { createLogger, flushLogSync, type Logger } from './http/logger.js';
import { ensureDemoAdmin, type DemoDashboardUser } from './dashboard/demo-admin.js';
import { registerDemo } from './demo/demo-routes.js';
import { developmentAdminToken } from './auth/development-token.js';
import { ensureDemoTenant, type DemoCredentials } from './demo/demo-tenant.js';
import { startService } from './service.js';

let logger: Logger | null = null;

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
  // Only a development start (`npm start` passes --development) generates an admin token, once,
  // kept with the demo credentials; otherwise ADMIN_TOKEN unset means no operator API at all.
  const generatedAdminToken = developmentAdminToken(config.adminToken, process.argv, config.dataDir);
  if (generatedAdminToken) config.adminToken = generatedAdminToken;

  logger = createLogger(config.logLevel);
  setFatalLogger(logger);
  let demo: DemoCredentials | null = null;
  const service = await startService(config, {
    logger,
    extraRoutes: config.demo
      ? [
          (router, deps) =>
            registerDemo(
              router,
              () => demo,
              () => deps.config.publicBaseUrl,
            ),
        ]
      : [],
  });
  if (config.demo && service.server) demo = await ensureDemoTenant(service.deps.db, config.dataDir, config.adminToken);
  const dashboardUser: DemoDashboardUser | null = demo ? await ensureDemoAdmin(service.deps.db, config.dataDir, demo.tenantId) : null;

  const lines = [
    '',
    `  Identity verification API listening on ${service.url}`,
    `  Database: ${service.database.kind === 'embedded' ? `embedded (PGlite) in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
    `  Public base URL: ${service.deps.config.publicBaseUrl}`,
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
      `  Demo page (widget + events + verdict): ${service.deps.config.publicBaseUrl}/demo`,
    );
    if (dashboardUser) {
      lines.push(
        '',
        `  Dashboard: ${service.deps.config.publicBaseUrl}/dashboard`,
        `    email:    ${dashboardUser.email}`,
        `    password: ${dashboardUser.password}`,
      );
    }
  }
  if (generatedAdminToken) lines.push('', `  Operator API token (ADMIN_TOKEN was unset; generated for development): ${config.adminToken}`);
  lines.push(
    '',
    '  Try:',
    `    curl -s -X POST ${service.url}/v1/verify/init -H "Authorization: Bearer <publishable key>" -H 'Content-Type: application/json' -d '{}'`,
    '',
  );
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
  if (logger) flushLogSync(logger);
  // A start that failed for want of a database says which setting to check; other failures keep their stack.
  console.error(
    err instanceof DatabaseStartError || !(err instanceof Error) ? String((err as Error).message ?? err) : (err.stack ?? err.message),
  );
  process.exit(1);
});
