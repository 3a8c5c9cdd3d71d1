import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAgentState } from '../../../src/agent/loop/run-agent-loop.js';
import { renderStreamEvents } from '../../fakes/anthropic-answer.js';
import type { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import { reply, type ScriptedAnswer } from '../../fakes/script.js';
import { startFakeProvider } from '../../fakes/start-fake-provider.js';
import { ThinkingLedger } from '../../fakes/thinking-ledger.js';
import {
  doneOf,
  eventsOf,
  httpClientFor,
  makeEchoTool,
  makeWorkspace,
  runLoop,
} from '../../agent/loop/loop-harness.js';
import { useAwsEnvironment } from '../bedrock/bedrock-fixture.js';

useAwsEnvironment();

/**
 * A prompt-injected or simply odd model, scripted through the validating fakes and driven by the real agent
 * loop over the real SDKs: whatever it sends, no later request is one the service would refuse (the fake
 * answers any such request with the service's 400 and fails `assertDone()`), and each failure is explained
 * as what it was.
 */
/** DeepSeek stands for the OpenAI-compatible servers that send `reasoning_content` (and want it back in a loop). */
const MODELS = [
  'anthropic::claude-sonnet-5',
  'bedrock::global.anthropic.claude-sonnet-5',
  'openai::deepseek-v4-flash',
] as const;
type Model = (typeof MODELS)[number];

/** Thinking whose stream is 3 text pieces long in every fake. */
const THOUGHT = 'Thinking hard.';

/** How many wire events the fake sends up to and including the end of the first thinking block. */
function eventsThroughThinking(model: Model, answer: ScriptedAnswer): number {
  if (model.startsWith('anthropic::')) {
    const events = renderStreamEvents(answer, 'm', 1, new ThinkingLedger());
    return events.findIndex((event) => event.event === 'content_block_stop') + 1;
  }
  // Bedrock: messageStart, three text deltas, the signature, the block stop.
  if (model.startsWith('bedrock::')) return 6;
  // OpenAI-compatible: the role chunk, then three reasoning_content chunks.
  return 4;
}

let fake: FakeProviderServer | undefined;
let cases = 0;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  cases++;
});
afterAll(() => console.log(`hostile model: ${cases} cases`));

/** Runs one prompt then a follow-up in the same state, as `oy run` then `oy run -c` would. */
async function twoTurns(
  model: Model,
  script: ScriptedAnswer[] | Parameters<typeof startFakeProvider>[0],
) {
  fake = await startFakeProvider(Array.isArray(script) ? { script } : script);
  const client = await httpClientFor(fake, model);
  const { tool, runs } = makeEchoTool();
  const state = createAgentState();
  const root = makeWorkspace('oy-hostile-');
  const first = await runLoop(root, { client, prompt: 'look around', tools: [tool], state });
  const second = await runLoop(root, { client, prompt: 'and now?', tools: [tool], state });
  return { first, second, runs, state, fake };
}

describe.each(MODELS)('a hostile model on %s', (model) => {
  it('whitespace before calls, empty and redacted thinking, invalid tool JSON: every later request is accepted', async () => {
    const { first, second, runs, fake } = await twoTurns(model, [
      {
        kind: 'answer',
        thinking: [{ text: '' }, { redacted: true }],
        text: '\n\n',
        toolCalls: [{ name: 'list', arguments: null, argumentsJson: '{"text": "unterminated' }],
      },
      {
        kind: 'answer',
        thinking: [{ text: THOUGHT }],
        text: ' \t',
        toolCalls: [{ name: 'list', arguments: { text: 'fixed' } }],
      },
      reply.thinkingText(THOUGHT, 'Done.'),
      reply.text('Still done.'),
    ]);
    expect(eventsOf(first, 'error')).toEqual([]);
    expect(doneOf(first)).toMatchObject({ stopReason: 'completed', answer: 'Done.' });
    expect(doneOf(second)).toMatchObject({ stopReason: 'completed', answer: 'Still done.' });
    // The invalid call never ran; the model was told, and the corrected call ran once.
    expect(runs).toEqual([{ text: 'fixed' }]);
    const told = JSON.stringify(fake.modelCalls[1]!.body);
    expect(told).toMatch(/invalid|not valid JSON|arguments/i);
    // No whitespace-only text block (a signed empty reasoning text is the model's own and goes back as is).
    expect(told.replace(/"reasoningText":\{[^}]*\}/g, '')).not.toMatch(/"text":"\s*"/);
    fake.assertDone();
  });

  it('a stream cut right after a thinking block: the error says the stream broke, and the next turn is accepted', async () => {
    const cut: ScriptedAnswer = {
      ...reply.thinkingToolCall(THOUGHT, 'list', { text: 'a' }),
    };
    cut.cutAfterEvents = eventsThroughThinking(model, cut);
    const { first, second, runs, fake } = await twoTurns(model, [cut, reply.text('Recovered.')]);
    const [error] = eventsOf(first, 'error');
    expect(error?.message).toMatch(
      /ended before the answer was complete|connection|terminated|closed/i,
    );
    expect(error?.message).not.toMatch(/does not know the model|inference profile|too large/i);
    expect(error?.message).toMatch(/was not retried: send the prompt again/);
    expect(doneOf(first).stopReason).toBe('error');
    expect(runs).toEqual([]);
    expect(doneOf(second)).toMatchObject({ stopReason: 'completed', answer: 'Recovered.' });
    fake.assertDone();
  });

  it('an error event inside a 200 stream after thinking: reported as that error, and the next turn is accepted', async () => {
    const broken: ScriptedAnswer = {
      ...reply.thinkingToolCall(THOUGHT, 'list', { text: 'a' }),
      streamErrorType: model.startsWith('bedrock::')
        ? 'modelStreamErrorException'
        : model.startsWith('anthropic::')
          ? 'overloaded_error'
          : 'server_error',
    };
    broken.streamErrorAfterEvents = eventsThroughThinking(model, broken);
    const { first, second, fake } = await twoTurns(model, [broken, reply.text('Recovered.')]);
    const [error] = eventsOf(first, 'error');
    expect(error?.message).toMatch(/overloaded|failed|server|stream error|mid-stream/i);
    expect(error?.message).not.toMatch(/does not know the model|inference profile|malformed/i);
    // It was not retried (the thinking was already shown), and the advice does not say it will be.
    expect(error?.message).toMatch(/was not retried: send the prompt again/);
    expect(error?.message).not.toMatch(/retries this kind of failure by itself/);
    expect(doneOf(second)).toMatchObject({ stopReason: 'completed', answer: 'Recovered.' });
    fake.assertDone();
  });

  it('an error event before anything was shown is retried, and the answer arrives', async () => {
    const early: ScriptedAnswer = {
      kind: 'answer',
      text: 'never',
      streamErrorAfterEvents: 1,
      streamErrorType: model.startsWith('bedrock::')
        ? 'throttlingException'
        : model.startsWith('anthropic::')
          ? 'overloaded_error'
          : 'server_error',
    };
    const { first, fake } = await twoTurns(model, [
      early,
      reply.text('Hello.'),
      reply.text('Again.'),
    ]);
    expect(eventsOf(first, 'error')).toEqual([]);
    expect(doneOf(first).answer).toBe('Hello.');
    fake.assertDone();
  });

  it('a Retry-After of 11 days is not retried early and the error names the wait', async () => {
    const { first, second, fake } = await twoTurns(model, {
      script: [
        { kind: 'error', status: 429, retryAfter: String(11 * 24 * 3600) },
        reply.text('Later.'),
      ],
    });
    const [error] = eventsOf(first, 'error');
    expect(error?.message).toMatch(/11 days/);
    expect(error?.message).toMatch(/rate|throttl/i);
    // One request for the first prompt (no early retries), one for the second.
    expect(fake.modelCalls).toHaveLength(2);
    expect(doneOf(second).answer).toBe('Later.');
    fake.assertDone();
  });
});
