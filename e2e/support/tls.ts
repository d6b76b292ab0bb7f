import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { makeLocalCa } from '@service/fixtures/local-ca';

/**
 * A throwaway CA and a certificate for localhost/127.0.0.1 (the API package's `makeLocalCa`): the
 * API started by the global setup trusts the CA (NODE_EXTRA_CA_CERTS), so suites can receive real
 * HTTPS webhooks.
 */
export function makeTestTls(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-e2e-tls-'));
  makeLocalCa(dir, { days: 2, name: 'e2e test CA' });
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
