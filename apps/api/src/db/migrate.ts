import type { Database } from './types.js';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m001 from './migrations/001_initial.js';
import * as m002 from './migrations/002_dashboard.js';
import * as m003 from './migrations/003_blob_data_keys.js';
import * as m004 from './migrations/004_retention.js';
import * as m005 from './migrations/005_handoff.js';
import * as m006 from './migrations/006_overview.js';

const migrations: Record<string, Migration> = {
  '001_initial': m001,
  '002_dashboard': m002,
  '003_blob_data_keys': m003,
  '004_retention': m004,
  '005_handoff': m005,
  '006_overview': m006,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; Kysely's migrator locks, so several processes may start at once. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
