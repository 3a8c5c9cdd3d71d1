import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSessions } from '../../src/agent/session/session-store.js';
import { resolveOyPaths } from '../../src/config/config-paths.js';
import type { FakeProviderServer, RecordedRequest } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { runOy } from '../support/run-oy.js';

/**
 * A session started on an OpenAI-compatible server whose tool-call ids other services refuse
 * (Kimi-style `functions.list:0`, vLLM's 48 characters) goes on with `oy run -c --model …` on
 * Anthropic, Bedrock and OpenAI, and back, each through its SDK to a fake that enforces that
 * service's id rules; the saved session keeps the original ids.
 */
const KIMI_ID = 'functions.list:0';
const VLLM_ID = `chatcmpl-tool-${'0123456789abcdef'.repeat(2)}ab`;

let fake: FakeProviderServer;
let workspace: string;
let local: string;

beforeAll(async () => {
  fake = await startFakeProvider();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-cross-provider-')));
  writeFileSync(path.join(workspace, 'notes.txt'), 'hello\n');
  local = `local-${new URL(fake.url).port}::house-model`;
});
afterAll(async () => {
  await fake.close();
});

function oy(model: string, args: string[]) {
  return runOy(['run', '--model', model, ...args], { cwd: workspace, env: fakeProviderEnv(fake) });
}

/** Every tool-use id a recorded request carries, in calls and results, whatever the wire format. */
function idsIn(request: RecordedRequest): string[] {
  const text = JSON.stringify(request.body);
  return [...text.matchAll(/"(?:id|tool_use_id|toolUseId|tool_call_id)":"([^"]*)"/g)].map(
    (match) => match[1]!,
  );
}

describe('a session that moves between providers', () => {
  it('sends each service only ids it accepts, and keeps the originals in the session', async () => {
    expect(VLLM_ID).toHaveLength(48);
    fake.enqueue(
      {
        kind: 'answer',
        toolCalls: [
          { id: KIMI_ID, name: 'list', arguments: {} },
          { id: VLLM_ID, name: 'read', arguments: { path: 'notes.txt' } },
        ],
      },
      reply.text('Listed and read.'),
    );
    const first = await oy(local, ['look around']);
    expect(first.code, first.stderr).toBe(0);

    const legs = [
      { model: 'anthropic::claude-haiku-4-5', allowed: /^[a-zA-Z0-9_-]+$/, max: 64 },
      {
        model: 'bedrock::us.anthropic.claude-sonnet-4-5-20250929-v1:0',
        allowed: /^[a-zA-Z0-9_-]+$/,
        max: 64,
      },
      { model: 'openai::gpt-4o', allowed: /^.+$/, max: 40 },
      { model: local, allowed: /^.+$/, max: 40 },
    ];
    for (const leg of legs) {
      fake.enqueue(reply.text(`Still here on ${leg.model}.`));
      const before = fake.modelCalls.length;
      const run = await oy(leg.model, ['-c', 'and now?']);
      expect(run.code, `${leg.model}: ${run.stderr}`).toBe(0);
      expect(fake.modelCalls.length - before).toBe(1);
      const ids = idsIn(fake.modelCalls.at(-1)!).filter((id) => !id.startsWith('msg'));
      // Two calls and their two results.
      expect(ids.length, leg.model).toBeGreaterThanOrEqual(4);
      for (const id of ids) {
        expect(id, leg.model).toMatch(leg.allowed);
        expect(id.length, leg.model).toBeLessThanOrEqual(leg.max);
      }
    }
    // Back on the server that issued them, the ids it knows come back as they were (the 48-character one is over OpenAI's 40).
    expect(idsIn(fake.modelCalls.at(-1)!)).toContain(KIMI_ID);

    const [latest] = await listSessions(resolveOyPaths(process.env).stateDir, workspace);
    const saved = readFileSync(latest!.file, 'utf8');
    expect(saved).toContain(KIMI_ID);
    expect(saved).toContain(VLLM_ID);
  });
});
