import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throwaway single-node Ceph cluster with radosgw on loopback: a real S3 server for the tests. */
export interface Radosgw {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Stops the gateway only (the S3 store unreachable); `resume()` starts it again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** True when Debian's radosgw, ceph-mon and ceph-osd are installed (scripts/ensure-test-packages.mjs). */
export function radosgwInstalled(): boolean {
  return ['radosgw', 'ceph-mon', 'ceph-osd', 'monmaptool', 'radosgw-admin'].every((b) => fs.existsSync(`/usr/bin/${b}`));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => {
        c.destroy();
        resolve(true);
      });
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`radosgw did not listen on ${port} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Starts one monitor, one memstore OSD (objects in RAM) and radosgw with the beast frontend, with
 * the settings measured in shared/notes/storage.md (auth off, a v2-only monitor map, pools of size
 * one), then creates an S3 user. About 12 s; the first bucket and object take a few more.
 */
export async function startRadosgw(): Promise<Radosgw> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'radosgw-'));
  const [monPort, rgwPort] = [await freePort(), await freePort()];
  const fsid = randomUUID();
  const conf = path.join(dir, 'ceph.conf');
  fs.writeFileSync(
    conf,
    `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
auth cluster required = none
auth service required = none
auth client required = none
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon max pg per osd = 1000
osd objectstore = memstore
memstore device bytes = 1073741824
run dir = ${dir}/run
log file = ${dir}/$name.log
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
[mon.a]
mon data = ${dir}/mon
[osd.0]
osd data = ${dir}/osd
[client.rgw.test]
ms mon client mode = crc
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
rgw dns name = 127.0.0.1
`,
  );
  for (const d of ['run', 'mon', 'osd', 'rgw']) fs.mkdirSync(path.join(dir, d));
  const c = ['-c', conf];
  const procs: ChildProcess[] = [];
  const daemon = (cmd: string, args: string[]) => {
    const p = spawn(cmd, [...c, '-f', ...args], { stdio: 'ignore' });
    procs.push(p);
    return p;
  };
  await run('monmaptool', ['--create', '--fsid', fsid, '--addv', 'a', `[v2:127.0.0.1:${monPort}]`, path.join(dir, 'monmap')]);
  await run('ceph-mon', [...c, '--mkfs', '-i', 'a', '--monmap', path.join(dir, 'monmap')]);
  daemon('ceph-mon', ['-i', 'a']);
  await waitForPort(monPort, 20_000);
  const osdUuid = randomUUID();
  await run('ceph', [...c, 'osd', 'new', osdUuid], { timeout: 30_000 });
  await run('ceph-osd', [...c, '-i', '0', '--mkfs', '--osd-uuid', osdUuid], { timeout: 30_000 });
  daemon('ceph-osd', ['-i', '0']);
  let rgw = daemon('radosgw', ['-n', 'client.rgw.test']);
  await waitForPort(rgwPort, 60_000);
  const accessKeyId = 'TESTACCESSKEY';
  const secretAccessKey = 'test-secret-key-for-radosgw-0123456789';
  await run(
    'radosgw-admin',
    [
      ...c,
      '-n',
      'client.rgw.test',
      'user',
      'create',
      '--uid=test',
      '--display-name=test',
      `--access-key=${accessKeyId}`,
      `--secret-key=${secretAccessKey}`,
    ],
    { timeout: 30_000 },
  );
  const kill = (p: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (p.exitCode !== null || p.signalCode !== null) return resolve();
      p.once('exit', () => resolve());
      p.kill('SIGKILL');
    });
  return {
    endpoint: `http://127.0.0.1:${rgwPort}`,
    accessKeyId,
    secretAccessKey,
    async pause() {
      await kill(rgw);
    },
    async resume() {
      rgw = daemon('radosgw', ['-n', 'client.rgw.test']);
      await waitForPort(rgwPort, 60_000);
    },
    async stop() {
      await Promise.all(procs.map(kill));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
