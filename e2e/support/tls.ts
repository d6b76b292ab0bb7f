import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/**
 * A throwaway CA and a certificate for localhost/127.0.0.1, made with openssl: the API started by
 * the global setup trusts the CA (NODE_EXTRA_CA_CERTS), so suites can receive real HTTPS webhooks.
 */
export function makeTestTls(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-e2e-tls-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=e2e test CA');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  fs.writeFileSync(path.join(dir, 'ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  );
  return dir;
}

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** An HTTPS webhook receiver on loopback; `status` is what it answers. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  status = 200;
  private server!: https.Server;
  port = 0;

  async start(tlsDir: string): Promise<this> {
    this.server = https.createServer(
      { key: fs.readFileSync(path.join(tlsDir, 'server.key')), cert: fs.readFileSync(path.join(tlsDir, 'server.pem')) },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          this.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
          res.writeHead(this.status).end('ok');
        });
      },
    );
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(p = '/hook'): string {
    return `https://localhost:${this.port}${p}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(() => r(null)));
  }
}
