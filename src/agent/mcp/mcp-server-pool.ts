import {
  DEFAULT_MCP_CALL_TIMEOUT_SECONDS,
  DEFAULT_MCP_STARTUP_TIMEOUT_SECONDS,
  type McpServerConfig,
} from '../../config/mcp-servers-schema.js';
import type { WorkspaceAccess } from '../shell/build-bwrap-args.js';
import type {
  ConnectOptions,
  McpCallResult,
  McpConnection,
  McpToolInfo,
  connectMcpServer,
} from './connect-mcp-server.js';

/** Where a server's entry came from: the user config, or a workspace `.mcp.json` the user approved. */
export type McpServerSource = 'user' | 'project';

export interface McpServerEntry {
  config: McpServerConfig;
  source: McpServerSource;
}

export interface McpServerStatus {
  name: string;
  source: McpServerSource;
  state: 'not started' | 'running' | 'failed';
  error?: string;
  tools: McpToolInfo[];
}

export type PoolOptions = Omit<ConnectOptions, 'timeoutMs' | 'source'> & {
  /** Test seam: how a server is started. */
  connect?: typeof connectMcpServer;
  /** Where a line goes that the user must read (a git file a sandboxed server wrote, disabled). */
  onNotice?: (line: string) => void;
};

/**
 * The run's MCP servers: each started on first use (once, with its start-up timeout), each call
 * bounded by its timeout, and every one stopped by `close()`. A call that times out stops its server,
 * since a stuck server would hold every later call; the next use starts it again.
 */
export class McpServerPool {
  readonly #entries: ReadonlyMap<string, McpServerEntry>;
  readonly #options: PoolOptions;
  readonly #started = new Map<string, Promise<McpConnection>>();
  readonly #status = new Map<string, McpServerStatus>();
  /** The workspace access each running project server was started with. */
  readonly #access = new Map<string, WorkspaceAccess>();
  #isClosed = false;

  constructor(entries: Readonly<Record<string, McpServerEntry>>, options: PoolOptions) {
    this.#entries = new Map(Object.entries(entries));
    this.#options = options;
  }

  get names(): string[] {
    return [...this.#entries.keys()];
  }

  status(name: string): McpServerStatus {
    const entry = this.#entries.get(name);
    return (
      this.#status.get(name) ?? {
        name,
        source: entry?.source ?? 'user',
        state: 'not started',
        tools: [],
      }
    );
  }

  /**
   * Starts the server if it is not running; its tools, or an error naming the server. A project
   * server running with other workspace access than `access` (the mode changed to or from plan)
   * is stopped and started again with it.
   */
  async start(name: string, access?: WorkspaceAccess): Promise<McpConnection> {
    const entry = this.#entries.get(name);
    if (entry === undefined) throw new Error(`no MCP server is named ${JSON.stringify(name)}`);
    if (this.#isClosed) throw new Error('the MCP servers were stopped');
    const wanted = access ?? this.#options.launch.workspaceAccess;
    if (entry.source === 'project' && this.#started.has(name) && this.#access.get(name) !== wanted)
      await this.#stop(name);
    let started = this.#started.get(name);
    if (started === undefined) {
      const seconds = entry.config.startupTimeoutSeconds ?? DEFAULT_MCP_STARTUP_TIMEOUT_SECONDS;
      this.#access.set(name, wanted);
      const options = {
        ...this.#options,
        launch: { ...this.#options.launch, workspaceAccess: wanted },
        source: entry.source,
        timeoutMs: seconds * 1000,
      };
      started = this.#connect(entry.config, options).then(
        (connection) => {
          this.#status.set(name, {
            name,
            source: entry.source,
            state: 'running',
            tools: connection.tools,
          });
          return connection;
        },
        (error: unknown) => {
          const message = `could not start within ${seconds} s or list its tools: ${messageOf(error)}`;
          this.#status.set(name, {
            name,
            source: entry.source,
            state: 'failed',
            error: message,
            tools: [],
          });
          throw new Error(`MCP server ${name}: ${message}`, { cause: error });
        },
      );
      this.#started.set(name, started);
    }
    return started;
  }

  /** The SDK is loaded only when a server is used: a run without servers never pays for it. */
  async #connect(...args: Parameters<typeof connectMcpServer>): Promise<McpConnection> {
    const connect =
      this.#options.connect ?? (await import('./connect-mcp-server.js')).connectMcpServer;
    return connect(...args);
  }

  /** Calls one tool (`access`: the mode's workspace access for a project server); a timeout stops the server and says so. */
  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    access?: WorkspaceAccess,
  ): Promise<McpCallResult> {
    const connection = await this.start(server, access);
    const entry = this.#entries.get(server);
    const seconds = entry?.config.timeoutSeconds ?? DEFAULT_MCP_CALL_TIMEOUT_SECONDS;
    try {
      return await connection.callTool(tool, args, { signal, timeoutMs: seconds * 1000 });
    } catch (error) {
      if (signal.aborted) throw new Error('cancelled by the user', { cause: error });
      if (isTimeout(error)) {
        await this.#stop(server);
        throw new Error(
          `the MCP server ${server} did not answer within ${seconds} s, so the call was cut and the server stopped`,
          { cause: error },
        );
      }
      throw error;
    } finally {
      await this.#review(connection);
    }
  }

  async #review(connection: McpConnection | undefined): Promise<void> {
    for (const line of (await connection?.review().catch(() => [])) ?? [])
      this.#options.onNotice?.(line);
  }

  /** Stops every server that was started. */
  async close(): Promise<void> {
    this.#isClosed = true;
    await Promise.all(this.names.map((name) => this.#stop(name)));
  }

  async #stop(name: string): Promise<void> {
    const started = this.#started.get(name);
    this.#started.delete(name);
    const status = this.#status.get(name);
    if (status?.state === 'running') this.#status.set(name, { ...status, state: 'not started' });
    const connection = await started?.catch(() => undefined);
    await connection?.close();
    await this.#review(connection);
  }
}

function isTimeout(error: unknown): boolean {
  // The SDK's McpError RequestTimeout is -32001.
  return (error as { code?: unknown } | null)?.code === -32001;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
