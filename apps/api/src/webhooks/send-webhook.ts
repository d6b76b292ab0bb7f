import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isLoopbackHost, LIMITS } from '@service/contract';
import { guardedLookup, isPublicAddress, SsrfBlockedError } from './ssrf-guard.js';

export interface SendResult {
  statusCode: number | null;
  /** Short machine-readable reason when there was no HTTP status (never includes the body). */
  error: string | null;
  latencyMs: number;
}

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  allowPrivateNetworks: boolean;
  timeoutMs?: number;
  connectTimeoutMs?: number;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * One POST to a receiver: https only (plain http only to a loopback host, and only when private
 * networks are allowed: development), SSRF-guarded lookup, no redirects followed (a 3xx is just a
 * status), 5 s to connect and 10 s in all, at most 64 KiB of response read.
 */
export function sendWebhook(req: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    // eslint-disable-next-line prefer-const -- finish() reads it before the timer is set
    let total: NodeJS.Timeout | undefined;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      resolve({ statusCode, error, latencyMs: elapsed() });
    };

    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return finish(null, 'invalid_url');
    }
    const plain = url.protocol === 'http:' && req.allowPrivateNetworks && isLoopbackHost(url.hostname);
    if (url.protocol !== 'https:' && !plain) return finish(null, 'https_required');
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(literal) && !req.allowPrivateNetworks && !isPublicAddress(literal)) return finish(null, 'ssrf_blocked');

    const request = (plain ? http : https).request(
      {
        protocol: plain ? 'http:' : 'https:',
        hostname: literal,
        port: url.port || (plain ? 80 : 443),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...req.headers, 'Content-Length': Buffer.byteLength(req.body), 'User-Agent': 'service-webhooks/1' },
        lookup: guardedLookup(req.allowPrivateNetworks),
        agent: false,
        servername: net.isIP(literal) ? undefined : literal,
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on('end', () => finish(res.statusCode ?? null, null));
        res.on('close', () => finish(res.statusCode ?? null, null));
        res.on('error', () => finish(res.statusCode ?? null, null));
      },
    );
    total = setTimeout(() => {
      finish(null, 'timeout');
      request.destroy();
    }, req.timeoutMs ?? LIMITS.webhookTimeoutMs);
    request.on('socket', (socket) => {
      const connectTimer = setTimeout(() => {
        finish(null, 'connect_timeout');
        request.destroy();
      }, req.connectTimeoutMs ?? LIMITS.webhookConnectTimeoutMs);
      socket.once(plain ? 'connect' : 'secureConnect', () => clearTimeout(connectTimer));
      socket.once('close', () => clearTimeout(connectTimer));
    });
    request.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof SsrfBlockedError) return finish(null, 'ssrf_blocked');
      const code = err.code ?? 'connection_error';
      finish(null, code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('UNABLE') ? 'tls_error' : code.toLowerCase());
    });
    request.end(req.body);
  });
}

/** 2xx delivered; 5xx, 408, 429, timeouts and connection errors retried; the rest permanent. */
export function classify(result: SendResult): 'delivered' | 'retry' | 'permanent' {
  const s = result.statusCode;
  if (s === null)
    return result.error === 'ssrf_blocked' || result.error === 'https_required' || result.error === 'invalid_url' ? 'permanent' : 'retry';
  if (s >= 200 && s < 300) return 'delivered';
  if (s >= 500 || s === 408 || s === 429) return 'retry';
  return 'permanent';
}
