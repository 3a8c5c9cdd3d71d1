import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on a loopback address that counts every request it receives, by path. */
export interface CountingServer {
  host: string;
  port: number;
  hits: () => number;
  hitsOn: (path: string) => number;
  /** Host header and other headers of every request, in order. */
  requests: http.IncomingHttpHeaders[];
  close: () => Promise<void>;
}

export async function startCountingServer(
  host: string,
  handle: (request: http.IncomingMessage, response: http.ServerResponse) => void = (_, res) =>
    res.end('reached'),
): Promise<CountingServer> {
  const byPath = new Map<string, number>();
  const requests: http.IncomingHttpHeaders[] = [];
  let total = 0;
  const server = http.createServer((request, response) => {
    total += 1;
    requests.push(request.headers);
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    byPath.set(path, (byPath.get(path) ?? 0) + 1);
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host,
    port,
    hits: () => total,
    hitsOn: (path) => byPath.get(path) ?? 0,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
