import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedAddress } from './resolve-public-address.js';

export interface SingleResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
}

export interface SingleRequest {
  url: URL;
  method: 'GET' | 'HEAD';
  headers: Readonly<Record<string, string>>;
  checked: CheckedAddress;
  maxBytes: number;
  signal: AbortSignal;
  /** Whether to read the body; redirects are answered without it. */
  wantsBody: (status: number) => boolean;
}

/**
 * One HTTP exchange pinned to an already-checked address: the socket's lookup returns that
 * address, so DNS cannot be consulted again, while Host and TLS SNI keep the URL's name.
 * Rejects on network errors; `guardedFetch` turns them into results.
 */
export function requestOnce(request: SingleRequest): Promise<SingleResponse> {
  const { url, checked } = request;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const isNamed = hostname !== checked.address;
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      {
        protocol: url.protocol,
        hostname,
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: { ...request.headers },
        lookup: pinnedLookup(checked),
        // A fresh socket per request: a pooled one could have been opened for another address.
        agent: false,
        signal: request.signal,
        ...(isNamed && url.protocol === 'https:' ? { servername: hostname } : {}),
      },
      (response) => {
        if (!request.wantsBody(response.statusCode ?? 0) || request.method === 'HEAD') {
          response.destroy();
          resolve(toResponse(response, [], false));
          return;
        }
        readCapped(response, request.maxBytes).then(
          ({ chunks, truncated }) => resolve(toResponse(response, chunks, truncated)),
          reject,
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function pinnedLookup(checked: CheckedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ ...checked }]);
    else callback(null, checked.address, checked.family);
  };
}

function readCapped(
  response: IncomingMessage,
  maxBytes: number,
): Promise<{ chunks: Buffer[]; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    response.on('data', (chunk: Buffer) => {
      const room = maxBytes - total;
      if (chunk.length >= room && total + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, room));
        total = maxBytes;
        response.destroy();
        resolve({ chunks, truncated: true });
        return;
      }
      chunks.push(chunk);
      total += chunk.length;
    });
    response.on('end', () => resolve({ chunks, truncated: false }));
    response.on('error', reject);
    response.on('close', () => {
      if (!response.complete) reject(new Error('the connection closed before the body ended'));
    });
  });
}

function toResponse(
  response: IncomingMessage,
  chunks: Buffer[],
  truncated: boolean,
): SingleResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks), truncated };
}
