import { describe, expect, it } from 'vitest';
import { compactIfNeeded } from '../../../src/agent/compact/compact-if-needed.js';
import { SUMMARY_SYSTEM_PROMPT } from '../../../src/agent/compact/summary-prompt.js';
import type { Message, ModelClient } from '../../../src/providers/types.js';
import { createRedactor } from '../../../src/safety/redact/index.js';
import { reply, type ScriptedReply } from '../../fakes/script.js';
import { ScriptedModelClient } from '../../fakes/scripted-model-client.js';
import { withRetries } from '../../../src/providers/retry/with-retries.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { expectValidTranscript } from './transcript-fixtures.js';

const AWS_KEY = createSecretFactory(4_242).awsAccessKeyId();
const SUMMARY = '## Goal\n- make `npm test` pass\n## Plan\n- fix src/add.ts';

/** A task whose oldest tool output holds a credential, followed by enough exchanges to summarize it away. */
function transcriptWithSecret(): Message[] {
  const messages: Message[] = [
    { role: 'user', text: 'Make npm test pass.' },
    {
      role: 'assistant',
      text: 'Reading the config first.',
      toolCalls: [{ id: 'toolu_1', name: 'read', arguments: { path: '.env.example' } }],
    },
    {
      role: 'tool',
      results: [
        {
          toolCallId: 'toolu_1',
          content: JSON.stringify({ ok: true, text: `AWS_ACCESS_KEY_ID=${AWS_KEY}` }),
        },
      ],
    },
  ];
  for (let n = 2; n <= 7; n += 1) {
    messages.push(
      {
        role: 'assistant',
        text: '',
        toolCalls: [
          { id: `toolu_${n}`, name: 'bash', arguments: { command: `npm test -- --shard=${n}` } },
        ],
      },
      {
        role: 'tool',
        results: [
          {
            toolCallId: `toolu_${n}`,
            content: JSON.stringify({ exit_code: n % 2, stdout: `shard ${n}` }),
          },
        ],
      },
    );
  }
  return messages;
}

let fake: ScriptedModelClient | undefined;

/** A scripted Anthropic model through the real retry wrapper, waiting 0 ms between attempts. */
function clientFor(script: ScriptedReply[], onRequest?: () => void): ModelClient {
  fake = new ScriptedModelClient({ script, ...(onRequest ? { onRequest } : {}) });
  return withRetries(fake, { random: () => 0 });
}

function compact(client: ModelClient, signal?: AbortSignal) {
  const redactor = createRedactor();
  return compactIfNeeded({
    client,
    system: 'You are oy.',
    messages: transcriptWithSecret(),
    tools: [],
    contextWindow: 200_000,
    redact: (text) => redactor.redact(text).text,
    force: true,
    ...(signal ? { signal } : {}),
  });
}

describe('compaction with a model (fake Anthropic provider)', () => {
  it('sends the older turns redacted, once, without tools, and puts the summary in the transcript', async () => {
    const client = clientFor([reply.text(SUMMARY, { inputTokens: 900, outputTokens: 40 })]);
    const result = await compact(client);

    fake!.assertDone();
    expect(fake!.modelCalls).toHaveLength(1);
    const sent = fake!.modelCalls[0]!;
    expect(sent.rawBody).not.toContain(AWS_KEY);
    expect(sent.rawBody).toContain('[REDACTED:aws-access-key-id:1]');
    const body = sent.body as {
      system: unknown;
      tools?: unknown;
      messages: Array<{ content: Array<{ text: string }> }>;
    };
    expect(body.tools).toBeUndefined();
    expect({ system: body.system, prompt: body.messages[0]!.content[0]!.text }).toMatchSnapshot();

    expect(result?.method).toBe('model');
    expect(result?.usage).toMatchObject({ inputTokens: 900, outputTokens: 40 });
    expectValidTranscript(result!.messages);
    const opening = result!.messages[0]!;
    expect(opening.role === 'user' && opening.text).toContain(SUMMARY);
    expect(JSON.stringify(result!.messages)).not.toContain(AWS_KEY);
  });

  it.each([
    ['server errors', Array.from({ length: 4 }, () => reply.serverError())],
    ['rate limits', Array.from({ length: 4 }, () => reply.rateLimited('0'))],
    [
      'cut streams',
      Array.from({ length: 4 }, (): ScriptedReply => ({
        kind: 'answer',
        text: 'partial summary',
        cutAfterEvents: 0,
      })),
    ],
    ['an empty answer', [reply.text('')]],
  ])('falls back to the deterministic summary after %s', async (name, script) => {
    const client = clientFor(script);
    const result = await compact(client);

    fake!.assertDone();
    expect(result?.method).toBe('deterministic');
    expectValidTranscript(result!.messages);
    const opening = result!.messages[0]!;
    const text = opening.role === 'user' ? opening.text : '';
    expect(text).not.toContain(AWS_KEY);
    expect(text).toContain('(Written by oy without a model, because the summary request failed.)');
    expect(text).toContain('bash command="npm test -- --shard=3": exit 1');
    if (name === 'server errors') expect(text).toMatchSnapshot();
  });

  it('rethrows when the caller aborts during the summary call', async () => {
    const controller = new AbortController();
    const client = clientFor([{ ...reply.text(SUMMARY), latencyMs: 30_000 }], () =>
      controller.abort(new Error('interrupted')),
    );
    await expect(compact(client, controller.signal)).rejects.toThrow();
    expect(fake!.modelCalls).toHaveLength(1);
  });

  it('snapshots the summary system prompt', () => {
    expect(SUMMARY_SYSTEM_PROMPT).toMatchSnapshot();
  });
});
