import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * An MCP server's HTTP response body is read up to this many bytes: the SDK's own limit on one stdio
 * message (its ReadBuffer's 10 MiB), so a server is held to the same bound over either transport. Far
 * above any result a model can use (tool results are capped much lower), and one body in flight at a
 * time keeps oy's memory bounded by it.
 */
export const MAX_MCP_RESPONSE_BYTES = 10 * 1024 * 1024;

/** A response body went past the cap; the message is what the model reads as the tool's error. */
export class McpResponseTooLarge extends Error {
  constructor(maxBytes: number) {
    super(
      `the MCP server sent a response larger than ${maxBytes / (1024 * 1024)} MiB, so oy stopped reading it and the call failed`,
    );
    this.name = 'McpResponseTooLarge';
  }
}

/**
 * `fetch` for the SDK's streamable-HTTP transport with every response body counted as it is read:
 * past `maxBytes` the body is cancelled (the connection is dropped, the bytes already read are let go)
 * and reads of it fail with McpResponseTooLarge, whether the SDK reads it whole (JSON) or as a stream
 * (SSE). `onOverflow` is told, since an SSE stream's failure never reaches the call that waits on it.
 */
export function capResponseBodies(
  onOverflow: (error: McpResponseTooLarge) => void,
  maxBytes: number = MAX_MCP_RESPONSE_BYTES,
  baseFetch: FetchLike = fetch,
): FetchLike {
  return async (url, init) => {
    const response = await baseFetch(url, init);
    if (response.body === null) return response;
    const reader = response.body.getReader();
    let received = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        received += value.byteLength;
        if (received > maxBytes) {
          const error = new McpResponseTooLarge(maxBytes);
          controller.error(error);
          await reader.cancel(error).catch(() => undefined);
          onOverflow(error);
          return;
        }
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    // A new Response carries the status and headers; its url is empty, which the SDK reads as the request's.
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
