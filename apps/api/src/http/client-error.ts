import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { newRequestId } from '../util/ids.js';
import type { Logger } from './logger.js';

/**
 * Node's HTTP parser refusing a request (bad request line, header overflow...) never reaches Koa:
 * answer the interface's Error object and log one JSON line with a request id, like any request.
 */
export function handleClientErrors(server: http.Server, logger: Logger): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    const requestId = newRequestId();
    if (err.code === 'ECONNRESET' || !socket.writable) {
      logger.info({ requestId, err: { code: err.code }, clientAborted: true }, 'client aborted');
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    logger.warn({ requestId, status, err: { message: err.message, code: err.code } }, 'malformed HTTP request');
    const body = JSON.stringify({ error: 'invalid_body', message: 'Malformed HTTP request', requestId });
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\n` +
        `X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
