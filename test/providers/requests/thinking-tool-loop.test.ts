import { afterEach, describe, expect, it } from 'vitest';
import { createAgentState } from '../../../src/agent/loop/run-agent-loop.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import type { Message } from '../../../src/providers/types.js';
import type { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import { reply } from '../../fakes/script.js';
import { startFakeProvider } from '../../fakes/start-fake-provider.js';
import {
  httpClientFor,
  doneOf,
  eventsOf,
  makeEchoTool,
  makeWorkspace,
  runLoop,
} from '../../agent/loop/loop-harness.js';
import { useAwsEnvironment } from '../bedrock/bedrock-fixture.js';

useAwsEnvironment();

/** Models that think unasked (adaptive thinking), one per wire format that signs thinking. */
const THINKING_MODELS = {
  anthropic: 'anthropic::claude-sonnet-5',
  bedrock: 'bedrock::global.anthropic.claude-sonnet-5',
} as const;

let fake: FakeProviderServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

type Body = { messages: { role: string; content: Record<string, unknown>[] }[] };

/** The first block of the last assistant turn a request sent, in either wire format. */
function leadingBlockOfLastAssistant(body: Body): Record<string, unknown> | undefined {
  return body.messages.findLast((message) => message.role === 'assistant')?.content[0];
}

describe.each(Object.entries(THINKING_MODELS))('a thinking tool loop on %s', (provider, model) => {
  it('sends thinking back signed, never whitespace text, and continues the session', async () => {
    fake = await startFakeProvider({
      script: [
        { ...reply.thinkingToolCall('I should list first.', 'list', { text: 'a' }), text: '\n\n' },
        {
          kind: 'answer',
          thinking: [{ text: 'One more look.' }, { redacted: true }],
          text: '  \n',
          toolCalls: [{ name: 'list', arguments: { text: 'b' } }],
        },
        reply.thinkingText('Done thinking.', 'All listed.'),
        reply.thinkingText('A follow-up.', 'Still fine.'),
      ],
    });
    const client = await httpClientFor(fake, model);
    const { tool, runs } = makeEchoTool();
    const state = createAgentState();
    const root = makeWorkspace();
    const events = await runLoop(root, { client, prompt: 'list twice', tools: [tool], state });

    expect(eventsOf(events, 'error')).toEqual([]);
    expect(doneOf(events)).toMatchObject({ stopReason: 'completed', answer: 'All listed.' });
    expect(runs).toHaveLength(2);
    expect(
      eventsOf(events, 'thinking_delta')
        .map((event) => event.text)
        .join(''),
    ).toContain('I should list first.');
    // The second and third requests continue a tool loop: the assistant turn starts with its thinking.
    const second = fake.modelCalls[1]!.body as Body;
    const leading = leadingBlockOfLastAssistant(second)!;
    if (provider === 'anthropic') expect(leading).toMatchObject({ type: 'thinking' });
    else expect(leading).toHaveProperty('reasoningContent');
    expect(JSON.stringify(second)).not.toMatch(/"text":"\s*"/);
    expect(state.messages[1]).toMatchObject({ role: 'assistant', text: '' });

    // Continued, as `oy run -c` does: the saved turns replay and the service still accepts them.
    const next = await runLoop(root, { client, prompt: 'and again', tools: [tool], state });
    expect(doneOf(next).answer).toBe('Still fine.');
    fake.assertDone();
  });
});

describe('the fakes refuse what the services refuse (controls)', () => {
  it('Anthropic rejects a tool loop whose thinking was dropped, and whitespace-only text', async () => {
    fake = await startFakeProvider({
      script: [reply.thinkingToolCall('plan', 'list', { text: 'a' }), reply.text('unused')],
    });
    const client = await httpClientFor(fake, THINKING_MODELS.anthropic);
    const first = await client.complete({
      system: 's',
      messages: [{ role: 'user', text: 'go' }],
      maxTokens: 512,
    });
    const call = first.toolCalls[0]!;
    const withoutThinking: Message[] = [
      { role: 'user', text: 'go' },
      { role: 'assistant', text: '', toolCalls: [call] },
      { role: 'tool', results: [{ toolCallId: call.id, content: 'ok' }] },
    ];
    const error = await client
      .complete({ system: 's', messages: withoutThinking, maxTokens: 512 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('bad_request');
    expect(fake.takeViolations().map((violation) => violation.message)).toEqual([
      expect.stringContaining('must start with a thinking block'),
    ]);

    // The same request with the signed thinking put back is accepted.
    const accepted = await client.complete({
      system: 's',
      messages: [
        withoutThinking[0]!,
        { role: 'assistant', text: '', toolCalls: [call], thinking: first.thinking! },
        withoutThinking[2]!,
      ],
      maxTokens: 512,
    });
    expect(accepted.text).toBe('unused');
    fake.assertDone();
  });

  it('Anthropic rejects a tampered signature', async () => {
    fake = await startFakeProvider({ script: [reply.thinkingToolCall('plan', 'list', {})] });
    const client = await httpClientFor(fake, THINKING_MODELS.anthropic);
    const first = await client.complete({
      system: 's',
      messages: [{ role: 'user', text: 'go' }],
      maxTokens: 64,
    });
    const tampered = first.thinking!.map((part) =>
      part.type === 'thinking' ? { ...part, text: `${part.text} (edited)` } : part,
    );
    const call = first.toolCalls[0]!;
    await expect(
      client.complete({
        system: 's',
        messages: [
          { role: 'user', text: 'go' },
          { role: 'assistant', text: '', toolCalls: [call], thinking: tampered },
          { role: 'tool', results: [{ toolCallId: call.id, content: 'ok' }] },
        ],
        maxTokens: 64,
      }),
    ).rejects.toMatchObject({ kind: 'bad_request' });
    expect(fake.takeViolations()[0]?.message).toMatch(/Invalid `signature`/);
    fake.assertDone();
  });
});

describe('reasoning_content in a DeepSeek tool loop', () => {
  it('goes back on the loop turns that reasoned, and not once a new prompt starts', async () => {
    fake = await startFakeProvider({
      script: [
        { ...reply.thinkingToolCall('Which files?', 'list', { text: 'a' }), text: '' },
        reply.thinkingText('Listed.', 'Here they are.'),
        reply.text('Again.'),
      ],
    });
    const client = await httpClientFor(fake, 'openai::deepseek-v4-flash');
    const { tool } = makeEchoTool();
    const state = createAgentState();
    const root = makeWorkspace();
    const events = await runLoop(root, { client, prompt: 'list', tools: [tool], state });
    expect(eventsOf(events, 'error')).toEqual([]);
    type Chat = { messages: { role: string; reasoning_content?: string }[] };
    const loop = fake.modelCalls[1]!.body as Chat;
    expect(loop.messages.find((m) => m.role === 'assistant')?.reasoning_content).toBe(
      'Which files?',
    );
    // The next prompt starts a new loop: DeepSeek does not need the earlier reasoning, OpenAI never takes it.
    await runLoop(root, { client, prompt: 'and again', tools: [tool], state });
    expect(fake.modelCalls[2]!.rawBody).not.toContain('reasoning_content');
    fake.assertDone();
  });
});
