import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export interface Received {
  at: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What the receiver answers to the n-th request (0-based); `hang` never answers. */
export type Responder = (n: number, req: Received) => { status: number; headers?: Record<string, string> } | 'hang';

/** A real HTTPS receiver on loopback, with the test CA's certificate for localhost/127.0.0.1. */
export class HttpsReceiver {
  readonly requests: Received[] = [];
  responder: Responder = () => ({ status: 200 });
  private server!: https.Server;
  port = 0;
  private waiters: (() => void)[] = [];

  async start(): Promise<this> {
    const dir = process.env.TEST_TLS_DIR!;
    this.server = https.createServer(
      { key: fs.readFileSync(path.join(dir, 'server.key')), cert: fs.readFileSync(path.join(dir, 'server.pem')) },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          const received: Received = {
            at: Date.now(),
            method: req.method!,
            path: req.url!,
            headers: req.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          };
          const n = this.requests.length;
          this.requests.push(received);
          for (const w of this.waiters.splice(0)) w();
          const answer = this.responder(n, received);
          if (answer === 'hang') return;
          res.writeHead(answer.status, answer.headers);
          res.end('ok');
        });
      },
    );
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(p = '/hook', host = 'localhost'): string {
    return `https://${host}:${this.port}${p}`;
  }

  async waitFor(count: number, timeoutMs = 15_000): Promise<Received[]> {
    const until = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      if (Date.now() > until) throw new Error(`receiver got ${this.requests.length} of ${count} requests`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
    return this.requests;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
