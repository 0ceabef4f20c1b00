/**
 * Answers requests Node's HTTP parser refused before Fastify saw them (headers or request line too
 * large, malformed, too slow to arrive) with the API's error envelope, as every JSON answer is:
 * Fastify's own handler writes `{"error":…,"message":…,"statusCode":…}`. No gate can run for
 * them (there is no request to judge), and none is needed: nothing was read, nothing changes.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** Status and message by the parser's error code; anything else is a 400. */
const REFUSALS: Record<string, [status: number, message: string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields (or the URL) too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout'],
};

export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // A connection reset: nobody is left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = REFUSALS[err.code ?? ''] ?? [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ success: false, error: message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
