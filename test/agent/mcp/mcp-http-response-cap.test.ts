import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MCP_RESPONSE_BYTES } from '../../../src/agent/mcp/cap-response-bodies.js';
import { connectMcpServer } from '../../../src/agent/mcp/connect-mcp-server.js';
import {
  startFloodingMcpServer,
  type FloodingMcpServer,
} from '../../fixtures/mcp/start-flooding-http-mcp-server.js';

/**
 * A hostile streamable-HTTP MCP server answers a call with a body far larger than any result: oy reads
 * it only up to MAX_MCP_RESPONSE_BYTES, the call fails with an error the model can read (not a
 * timeout), and the memory oy holds meanwhile stays far below the body. The bound is on bytes, taken
 * from process.memoryUsage while the call runs; a control reads the same kind of body with the SDK's
 * own fetch and holds all of it.
 */
const MiB = 1024 * 1024;
/** What the server would send for a guarded call: 256 MiB, of which oy must read at most the cap. */
const FLOOD_BYTES = 256 * MiB;
/** The control's body: smaller, since an unguarded client really holds it (several times over). */
const CONTROL_BYTES = 64 * MiB;
/** The calls' own timeout: far away, so a call that waited for it would fail the test's timeout instead. */
const CALL_TIMEOUT_MS = 120_000;

let flood: FloodingMcpServer;
let control: FloodingMcpServer;

beforeAll(async () => {
  [flood, control] = await Promise.all([
    startFloodingMcpServer(FLOOD_BYTES),
    startFloodingMcpServer(CONTROL_BYTES),
  ]);
});
afterAll(async () => {
  await Promise.all([flood.close(), control.close()]);
});

/** The most memory (heap and buffers) held above the start while `work` runs, sampled every few ms. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  const held = () => {
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.external;
  };
  (globalThis as { gc?: () => void }).gc?.();
  const start = held();
  let peak = 0;
  const sample = setInterval(() => (peak = Math.max(peak, held() - start)), 2);
  try {
    const result = await work();
    peak = Math.max(peak, held() - start);
    return { result, peak };
  } finally {
    clearInterval(sample);
  }
}

async function connect(url: string) {
  return connectMcpServer(
    { url },
    {
      workspaceRoot: mkdtempSync(path.join(tmpdir(), 'oy-mcp-cap-')),
      baseEnv: {},
      allowedEnvNames: [],
      timeoutMs: 30_000,
      source: 'user',
      launch: {
        sandbox: { setting: 'off', allowNetwork: false, homePaths: [] },
        workspaceAccess: 'read-write',
      },
    },
  );
}

describe('an MCP server that answers over HTTP with a huge body', () => {
  it.each(['flood_json', 'flood_sse'])(
    '%s: the call fails at the cap with a readable error, and memory stays far below the body',
    async (tool) => {
      const connection = await connect(flood.url);
      try {
        expect(connection.tools.map((info) => info.name)).toContain(tool);
        const before = flood.sent.length;
        const { result, peak } = await peakGrowth(() =>
          connection
            .callTool(
              tool,
              {},
              { signal: new AbortController().signal, timeoutMs: CALL_TIMEOUT_MS },
            )
            .then(
              () => new Error('the call succeeded'),
              (error: unknown) => error,
            ),
        );
        console.log(
          `${tool}: server sent ${(flood.sent[before]! / MiB).toFixed(1)} MiB of ${FLOOD_BYTES / MiB} MiB; peak growth ${(peak / MiB).toFixed(1)} MiB`,
        );
        expect(String(result)).toContain(
          'the MCP server sent a response larger than 10 MiB, so oy stopped reading it and the call failed',
        );
        // The server could push only about what oy read, plus what the sockets buffer.
        expect(flood.sent[before]).toBeLessThan(FLOOD_BYTES / 4);
        expect(flood.sent[before]).toBeGreaterThan(MAX_MCP_RESPONSE_BYTES);
        expect(peak).toBeLessThan(FLOOD_BYTES / 4);
        // The connection still serves a well-behaved call.
        const small = await connection.callTool(
          'small',
          {},
          { signal: new AbortController().signal, timeoutMs: CALL_TIMEOUT_MS },
        );
        expect(small.content).toEqual([{ type: 'text', text: 'a small answer' }]);
      } finally {
        await connection.close();
      }
    },
  );

  it('control: the SDK with its own fetch reads the whole body and holds more than all of it', async () => {
    const client = new Client({ name: 'control', version: '0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(control.url)));
    try {
      const { result, peak } = await peakGrowth(() =>
        client.callTool({ name: 'flood_json', arguments: {} }, undefined, {
          timeout: CALL_TIMEOUT_MS,
        }),
      );
      console.log(
        `control: read ${CONTROL_BYTES / MiB} MiB whole; peak growth ${(peak / MiB).toFixed(1)} MiB`,
      );
      const [block] = result.content as Array<{ text: string }>;
      expect(block!.text.length).toBe(CONTROL_BYTES);
      expect(peak).toBeGreaterThan(CONTROL_BYTES);
    } finally {
      await client.close();
    }
  });
});
