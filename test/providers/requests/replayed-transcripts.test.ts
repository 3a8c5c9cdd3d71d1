import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactIfNeeded } from '../../../src/agent/compact/compact-if-needed.js';
import { repairTranscript } from '../../../src/agent/session/repair-transcript.js';
import type {
  Message,
  ModelClient,
  ThinkingPart,
  ThinkingSource,
  ToolCall,
} from '../../../src/providers/types.js';
import type { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import { reply } from '../../fakes/script.js';
import { startFakeProvider } from '../../fakes/start-fake-provider.js';
import { httpClientFor } from '../../agent/loop/loop-harness.js';
import { useAwsEnvironment } from '../bedrock/bedrock-fixture.js';

useAwsEnvironment();

/**
 * Transcripts per provider (whitespace, thinking with and without text, redacted thinking, another service's
 * thinking, answers cut short after thinking, cancelled turns, every fourth compacted): each one request
 * through the real SDK to a fake that checks the service's rules.
 */
const CASES = 40;
const MODELS: Array<[string, ThinkingSource]> = [
  ['anthropic::claude-sonnet-5', 'anthropic'],
  ['anthropic::claude-3-5-haiku', 'anthropic'],
  ['bedrock::us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'bedrock'],
  ['bedrock::anthropic.claude-3-haiku-20240307-v1:0', 'bedrock'],
  ['bedrock::anthropic.claude-3-5-sonnet-20241022-v2:0', 'bedrock'],
  ['bedrock::global.anthropic.claude-sonnet-5', 'bedrock'],
  ['bedrock::meta.llama3-1-70b-instruct-v1:0', 'bedrock'],
  ['bedrock::amazon.nova-pro-v1:0', 'bedrock'],
  ['openai::gpt-4o', 'openai'],
  ['openai::o3', 'openai'],
];
const TEXTS = ['', '\n\n', ' \t', 'Looking.', 'Done: it works.'];
const TOOL = {
  name: 'list',
  description: 'Lists.',
  inputSchema: { type: 'object', properties: {} },
};

/**
 * Tool-call ids as each kind of server issues them, so a session that moved between providers is
 * covered: OpenAI's, Anthropic's, Bedrock's, Kimi-style `functions.name:0`, and the 46–48
 * characters of vLLM and transformers serve.
 */
const FOREIGN_IDS: ReadonlyArray<(seed: number, call: number) => string> = [
  (seed, call) => `call_${seed}_${call}`,
  (seed, call) => `toolu_01${seed}x${call}`,
  (seed, call) => `tooluse_${seed}-${call}`,
  (seed, call) => `functions.list:${seed}${call}`,
  (seed, call) =>
    `chatcmpl-tool-${String(seed).padStart(16, '0')}${String(call).padStart(18, '0')}`,
];

/** A small seeded generator (mulberry32), so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A summary model that is down: compaction falls back to its deterministic summary, with no model call. */
const DOWN: ModelClient = {
  ref: { provider: 'anthropic', model: 'down', id: 'anthropic::down' },
  stream: () => {
    throw new Error('down');
  },
  complete: () => Promise.reject(new Error('down')),
};

/** Every fourth transcript is compacted, as a long session is before its next request. */
async function compactSome(seed: number, messages: Message[]): Promise<Message[]> {
  if (seed % 4 !== 0) return messages;
  const result = await compactIfNeeded({
    client: DOWN,
    system: 'You are a test agent.',
    messages,
    tools: [TOOL],
    contextWindow: 2000,
    redact: (text) => text,
    force: true,
  });
  if (result) compacted++;
  return result?.messages ?? messages;
}
let compacted = 0;

/** A saved session as it could be on disk: whitespace turns, thinking turns, cancelled and failed turns. */
function generateTranscript(
  seed: number,
  source: ThinkingSource,
  fake: FakeProviderServer,
): Message[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const messages: Message[] = [];
  let callNumber = 0;
  const exchanges = 1 + Math.floor(next() * 5);
  for (let exchange = 0; exchange < exchanges; exchange++) {
    messages.push({ role: 'user', text: pick(['Check the repo.', '  ', 'again', '\n']) });
    const steps = Math.floor(next() * 3);
    for (let step = 0; step <= steps; step++) {
      const calls: ToolCall[] =
        step < steps
          ? [{ id: pick(FOREIGN_IDS)(seed, callNumber++), name: 'list', arguments: {} }]
          : [];
      const thinking: ThinkingPart[] = [];
      if (source === 'openai' && next() < 0.5) {
        // reasoning_content an OpenAI-compatible server sent: kept in the session, never sent back.
        thinking.push({ type: 'thinking', source, text: `reasoning ${seed}-${exchange}-${step}` });
      } else if (next() < 0.5) {
        // Empty thinking text is what a model that omits its thinking signs.
        const text = next() < 0.2 ? '' : `thought ${seed}-${exchange}-${step}`;
        thinking.push({ type: 'thinking', source, text, signature: fake.ledger.sign(text) });
        if (next() < 0.3)
          thinking.push({
            type: 'redacted_thinking',
            source,
            data:
              source === 'bedrock'
                ? Buffer.from(fake.ledger.issueRedacted()).toString('base64')
                : fake.ledger.issueRedacted(),
          });
        fake.ledger.recordToolCalls(
          calls.map((call) => call.id),
          thinking.length,
        );
      }
      // A session that switched models: another service's thinking, which cannot go back here.
      if (next() < 0.1)
        thinking.push({
          type: 'thinking',
          source: source === 'anthropic' ? 'bedrock' : 'anthropic',
          text: 'foreign',
          signature: 'not-this-service',
        });
      messages.push({
        role: 'assistant',
        text: pick(TEXTS),
        toolCalls: calls,
        ...(thinking.length > 0 ? { thinking } : {}),
      });
      const outcome = next();
      // A cancelled turn: the calls were saved, their results never were.
      if (calls.length > 0 && outcome < 0.15) break;
      if (calls.length > 0)
        messages.push({
          role: 'tool',
          results: calls.map((call) => ({
            toolCallId: call.id,
            content: pick(['', ' ', '{"ok":true}']),
          })),
        });
    }
  }
  return messages;
}

describe.each(MODELS)('replayed transcripts on %s', (model, source) => {
  let fake: FakeProviderServer;
  let client: ModelClient;
  beforeAll(async () => {
    fake = await startFakeProvider();
    client = await httpClientFor(fake, model);
  });
  afterAll(() => fake.close());

  it(`builds only requests the service accepts (${CASES} seeded transcripts)`, async () => {
    console.log(`replayed transcripts on ${model}: ${CASES} cases`);
    compacted = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const messages = [
        ...(await compactSome(seed, repairTranscript(generateTranscript(seed, source, fake)))),
        { role: 'user' as const, text: 'Continue.' },
      ];
      fake.enqueue(reply.text('ok'));
      const result = await client
        .complete({
          system: 'You are a test agent.',
          messages,
          tools: [TOOL],
          maxTokens: 4096,
          cache: { system: true, tools: true, lastMessage: true },
        })
        .catch((error: unknown) => error);
      expect(result, `seed ${seed}: ${JSON.stringify(fake.violations)}`).toMatchObject({
        text: 'ok',
      });
    }
    // The compaction path really ran: some transcripts were long enough to summarise.
    expect(compacted).toBeGreaterThan(0);
    fake.assertDone();
  });

  it('the fake would refuse the raw whitespace-only turn (control)', async () => {
    if (source === 'openai') return; // OpenAI accepts whitespace content; only the Claude services refuse it.
    fake.takeViolations();
    const body =
      source === 'anthropic'
        ? {
            model: model.split('::')[1],
            max_tokens: 16,
            messages: [
              { role: 'user', content: 'hi' },
              { role: 'assistant', content: [{ type: 'text', text: '\n\n' }] },
              { role: 'user', content: 'again' },
            ],
          }
        : {
            messages: [
              { role: 'user', content: [{ text: 'hi' }] },
              { role: 'assistant', content: [{ text: '\n\n' }] },
              { role: 'user', content: [{ text: 'again' }] },
            ],
          };
    const url =
      source === 'anthropic'
        ? `${fake.url}/v1/messages`
        : `${fake.url}/model/${encodeURIComponent(model.split('::')[1]!)}/converse`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(400);
    expect(fake.takeViolations()[0]?.message).toMatch(/non-whitespace text|is blank/);
  });
});
