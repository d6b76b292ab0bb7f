import { savedAdminToken } from '../demo/demo-tenant.js';
import { randomBase62 } from '../util/ids.js';

/** The flag `npm start` passes: a development start on the developer's machine. */
export const DEVELOPMENT_FLAG = '--development';

/**
 * The operator token a start should generate, if any: only a development start with ADMIN_TOKEN
 * unset gets one (the one saved in DATA_DIR by an earlier start, else a new one). A production
 * start with ADMIN_TOKEN unset gets none: the operator API does not exist.
 */
export function developmentAdminToken(adminToken: string | undefined, argv: readonly string[], dataDir: string): string | undefined {
  if (adminToken || !argv.includes(DEVELOPMENT_FLAG)) return undefined;
  return savedAdminToken(dataDir) ?? `adm_${randomBase62(40)}`;
}
