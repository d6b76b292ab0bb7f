import pg from 'pg';

export interface ScratchDatabase {
  url: string;
  /** Drops the database, connections and all. */
  drop(): Promise<void>;
}

/** A new, empty PostgreSQL database beside `baseUrl`'s, for one benchmark run. */
export async function createScratchDatabase(baseUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
