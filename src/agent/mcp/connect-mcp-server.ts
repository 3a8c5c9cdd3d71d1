import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../../config/mcp-servers-schema.js';
import { OY_VERSION } from '../../shared/version.js';
import { McpResponseTooLarge, capResponseBodies } from './cap-response-bodies.js';
import type { McpServerSource } from './mcp-server-pool.js';
import { prepareMcpSpawn, type McpLaunch, type McpSpawn } from './prepare-mcp-spawn.js';
import { StdioGroupTransport } from './stdio-group-transport.js';

/** A page of `tools/list` at most this many times: a server that pages forever is cut off. */
const MAX_TOOL_PAGES = 20;
/** The tail of a stdio server's stderr kept for an error message; the rest is dropped, never shown. */
const STDERR_TAIL_CHARS = 2000;

/** One tool as its server describes it (untrusted text: redacted and capped before the model sees it). */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  isReadOnly: boolean;
}

/** What a tool call returned, as MCP content blocks. */
export interface McpCallResult {
  content: unknown[];
  structuredContent?: unknown;
  isError: boolean;
}

/** A started server: its tools, a call, and a way to stop it. */
export interface McpConnection {
  tools: McpToolInfo[];
  callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<McpCallResult>;
  close(): Promise<void>;
  /** What the server's sandbox let it leave that git would run, disabled now (sandbox.ts). */
  review(): Promise<string[]>;
}

export interface ConnectOptions {
  workspaceRoot: string;
  /** The environment commands start from; narrowed like the bash tool's before the server's own `env` is added. */
  baseEnv: Readonly<Record<string, string | undefined>>;
  allowedEnvNames: readonly string[];
  timeoutMs: number;
  /** Where the server starts and how it is contained (prepare-mcp-spawn.ts). */
  launch: McpLaunch;
  /** The user config's server, or an approved `.mcp.json`'s (repository code, run sandboxed). */
  source: McpServerSource;
}

/**
 * Starts (stdio) or reaches (streamable HTTP) one server with the official SDK, and lists its tools,
 * all within `timeoutMs`; on failure the transport is closed (a stdio server is killed) before throwing.
 */
export async function connectMcpServer(
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<McpConnection> {
  const stderr = { tail: '' };
  const requests = new RequestsInFlight();
  const spawn = 'url' in config ? undefined : await prepareMcpSpawn(config, options);
  const transport = createTransport(config, spawn, stderr, requests);
  const client = new Client({ name: 'oy', version: OY_VERSION }, { capabilities: {} });
  const close = async () => {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
  };
  try {
    const deadline = requests.start(AbortSignal.timeout(options.timeoutMs));
    await requests.settle(
      deadline,
      client.connect(transport, { timeout: options.timeoutMs, signal: deadline.signal }),
    );
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
      const listed = await requests.settle(
        deadline,
        client.listTools(cursor === undefined ? {} : { cursor }, {
          timeout: options.timeoutMs,
          signal: deadline.signal,
        }),
      );
      for (const tool of listed.tools) {
        tools.push({
          name: tool.name,
          description: tool.description ?? '',
          inputSchema: tool.inputSchema as Record<string, unknown>,
          isReadOnly: tool.annotations?.readOnlyHint === true,
        });
      }
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    requests.end(deadline);
    return {
      tools,
      close,
      review: () => spawn?.review() ?? Promise.resolve([]),
      async callTool(tool, args, callOptions) {
        const call = requests.start(callOptions.signal);
        const result = await requests
          .settle(
            call,
            client.callTool({ name: tool, arguments: args }, undefined, {
              timeout: callOptions.timeoutMs,
              signal: call.signal,
            }),
          )
          .finally(() => requests.end(call));
        return {
          content: Array.isArray(result.content) ? result.content : [],
          ...(result.structuredContent === undefined
            ? {}
            : { structuredContent: result.structuredContent }),
          isError: result.isError === true,
        };
      },
    };
  } catch (error) {
    await close();
    const detail = stderr.tail.trim();
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}${detail === '' ? '' : ` (stderr: ${detail})`}`,
      { cause: error },
    );
  }
}

/**
 * The requests waiting on one server. A response body cut at the cap (cap-response-bodies.ts) fails
 * every one of them with that error: an SSE body's failure reaches only the transport, and the SDK
 * would otherwise leave the call waiting for its timeout.
 */
class RequestsInFlight {
  /** Each waiting request, with how to stop listening to its outer signal. */
  readonly #waiting = new Map<AbortController, () => void>();

  /** A signal for one request (or a run of them): aborted by `outer` (the user, a deadline) or by a cut response. */
  start(outer: AbortSignal): AbortController {
    const request = new AbortController();
    const forward = () => request.abort(outer.reason);
    if (outer.aborted) forward();
    else outer.addEventListener('abort', forward, { once: true });
    this.#waiting.set(request, () => outer.removeEventListener('abort', forward));
    return request;
  }

  end(request: AbortController): void {
    this.#waiting.get(request)?.();
    this.#waiting.delete(request);
  }

  /** The request's result; when a cut response aborted it, that error rather than the SDK's "timed out". */
  async settle<T>(request: AbortController, work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      const reason: unknown = request.signal.reason;
      throw reason instanceof McpResponseTooLarge ? reason : error;
    }
  }

  cut(error: McpResponseTooLarge): void {
    for (const request of this.#waiting.keys()) request.abort(error);
  }
}

function createTransport(
  config: McpServerConfig,
  spawned: McpSpawn | undefined,
  stderr: { tail: string },
  requests: RequestsInFlight,
): Transport {
  if ('url' in config || spawned === undefined) {
    if (!('url' in config)) throw new Error('a stdio server needs its spawn');
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: config.headers ?? {} },
      fetch: capResponseBodies((error) => requests.cut(error)),
    });
  }
  return new StdioGroupTransport({
    ...spawned,
    // Piped, never inherited: a server's stderr is untrusted text, kept only for an error message.
    onStderr: (chunk) => {
      stderr.tail = (stderr.tail + chunk).slice(-STDERR_TAIL_CHARS);
    },
  });
}
