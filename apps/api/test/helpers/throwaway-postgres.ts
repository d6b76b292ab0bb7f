import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const BIN = process.env.TEST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

/** True when this machine can start a PostgreSQL cluster of its own (initdb and pg_ctl present). */
export const canRunThrowawayPostgres = fs.existsSync(path.join(BIN, 'initdb')) && fs.existsSync(path.join(BIN, 'pg_ctl'));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root: as root, run its tools as the `postgres` user. */
async function ownerIds(): Promise<{ uid: number; gid: number; wrap: (cmd: string, args: string[]) => [string, string[]] } | null> {
  if (process.getuid?.() !== 0) return null;
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  return { uid, gid, wrap: (cmd, args) => ['runuser', ['-u', 'postgres', '--', cmd, ...args]] };
}

/**
 * A PostgreSQL cluster of the test's own (initdb in a temporary directory, a random port on
 * 127.0.0.1), to restart, stop and pause without touching the machine's shared server.
 */
export class ThrowawayPostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly exec: (cmd: string, args: string[]) => Promise<{ stdout: string }>,
  ) {}

  get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  url(database = 'postgres', password?: string): string {
    return `postgres://postgres${password ? `:${password}` : ''}@127.0.0.1:${this.port}/${database}`;
  }

  static async create(): Promise<ThrowawayPostgres> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-'));
    const owner = await ownerIds();
    if (owner) fs.chownSync(dir, owner.uid, owner.gid);
    const exec = (cmd: string, args: string[]) => {
      const [c, a] = owner ? owner.wrap(cmd, args) : [cmd, args];
      return run(c, a, { cwd: dir, timeout: 60_000 });
    };
    const pgc = new ThrowawayPostgres(dir, await freePort(), exec);
    await exec(path.join(BIN, 'initdb'), [
      '-D',
      pgc.dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]);
    fs.appendFileSync(
      path.join(pgc.dataDir, 'postgresql.conf'),
      [
        `port = ${pgc.port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        'max_connections = 200',
        'shared_buffers = 32MB',
        '',
      ].join('\n'),
    );
    await pgc.start();
    return pgc;
  }

  async start(): Promise<void> {
    await this.exec(path.join(BIN, 'pg_ctl'), ['-D', this.dataDir, '-l', path.join(this.dir, 'server.log'), '-w', '-t', '30', 'start']);
  }

  async stop(): Promise<void> {
    await this.exec(path.join(BIN, 'pg_ctl'), ['-D', this.dataDir, '-m', 'fast', '-w', '-t', '30', 'stop']);
  }

  /** What a managed database does on a minor upgrade or failover: every session cut, back at once. */
  async restartFast(): Promise<void> {
    await this.exec(path.join(BIN, 'pg_ctl'), [
      '-D',
      this.dataDir,
      '-l',
      path.join(this.dir, 'server.log'),
      '-m',
      'fast',
      '-w',
      '-t',
      '30',
      'restart',
    ]);
  }

  /** The postmaster and every backend: a hung server (connections stay open, nothing answers). */
  private pids(): number[] {
    const postmaster = Number(fs.readFileSync(path.join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = fs
      .readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return Number(fs.readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === postmaster;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  }

  pause(): void {
    for (const pid of this.pids()) process.kill(pid, 'SIGSTOP');
  }

  resume(): void {
    for (const pid of this.pids().reverse()) process.kill(pid, 'SIGCONT');
  }

  async createDatabase(name: string): Promise<string> {
    const c = new pg.Client({ connectionString: this.url() });
    await c.connect();
    await c.query(`create database ${name}`);
    await c.end();
    return this.url(name);
  }

  async destroy(): Promise<void> {
    try {
      this.resume();
    } catch {
      /* not running */
    }
    await this.stop().catch(() => {});
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
