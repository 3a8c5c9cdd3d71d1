import { describe, expect, it } from 'vitest';
import type { ScriptedModelClient } from '../../fakes/scripted-model-client.js';
import { reply } from '../../fakes/script.js';
import { REPEAT_STOP_COUNT } from '../../../src/agent/loop/repeat-guard.js';
import { createAgentState } from '../../../src/agent/loop/run-agent-loop.js';
import {
  MODELS,
  clientFor,
  scriptModel,
  doneOf,
  eventsOf,
  makeEchoTool,
  makeWorkspace,
  runLoop,
  sentToolResults,
} from './loop-harness.js';

let fake: ScriptedModelClient;

const SUMMARY_MARK = 'The run is stopping';

describe('the caps', () => {
  it('stops at --max-turns and returns the summary the model was asked for, without tools run', async () => {
    const { tool, runs } = makeEchoTool();
    fake = scriptModel([
      reply.toolCall('list', { text: 'one' }),
      reply.toolCall('list', { text: 'two' }),
      reply.text('Summary: echoed twice, nothing else done.'),
    ]);
    const events = await runLoop(makeWorkspace(), {
      client: clientFor(fake),
      prompt: 'Echo forever.',
      tools: [tool],
      maxModelCalls: 2,
    });
    fake.assertDone();
    const done = doneOf(events);
    expect(done.stopReason).toBe('max_turns');
    expect(done.answer).toBe('Summary: echoed twice, nothing else done.');
    expect(done.notice).toContain('2 model calls');
    expect(done.modelCalls).toBe(3);
    expect(runs).toHaveLength(2);
    const last = fake.modelCalls[2]!;
    expect(last.rawBody).toContain(SUMMARY_MARK);
    expect(sentToolResults(last)).toHaveLength(2);
    expect(fake.modelCalls[1]!.rawBody).not.toContain(SUMMARY_MARK);
  });

  it('still ends with the cap when the summary call fails, the reason as the answer', async () => {
    const { tool } = makeEchoTool();
    fake = scriptModel([reply.toolCall('list', { text: 'one' }), reply.error(400)]);
    const state = createAgentState();
    const events = await runLoop(makeWorkspace(), {
      client: clientFor(fake),
      prompt: 'Echo.',
      tools: [tool],
      maxModelCalls: 1,
      state,
    });
    fake.assertDone();
    const done = doneOf(events);
    expect(done.stopReason).toBe('max_turns');
    expect(done.answer).toBe('stopped after 1 model calls (the turn cap)');
    expect(eventsOf(events, 'error')[0]).toMatchObject({ kind: 'bad_request' });
    expect(state.messages.at(-1)).toMatchObject({ role: 'assistant' });
  });

  it('stops at --max-cost: the over-budget calls are not run, and the summary is the answer', async () => {
    const { tool, runs } = makeEchoTool();
    fake = scriptModel([
      reply.toolCall(
        'list',
        { text: 'costly' },
        { usage: { inputTokens: 1_000_000, outputTokens: 10 } },
      ),
      reply.text('Summary: stopped before echoing.'),
    ]);
    const events = await runLoop(makeWorkspace(), {
      client: clientFor(fake),
      prompt: 'Echo.',
      tools: [tool],
      maxCostUsd: 0.5,
    });
    fake.assertDone();
    const done = doneOf(events);
    expect(done.stopReason).toBe('max_cost');
    expect(done.answer).toBe('Summary: stopped before echoing.');
    expect(done.costUsd).toBeGreaterThanOrEqual(0.5);
    expect(runs).toHaveLength(0);
    const [result] = sentToolResults(fake.modelCalls[1]!);
    expect(result?.content).toContain('not run: the cost cap was reached');
    expect(fake.modelCalls[1]!.rawBody).toContain(SUMMARY_MARK);
  });

  it('warns once, without stopping, when the model has no price and a cost cap is set', async () => {
    fake = scriptModel([reply.text('fine')], 'openai::my-unpriced-model');
    const events = await runLoop(makeWorkspace(), {
      client: clientFor(fake),
      prompt: 'Hi.',
      maxCostUsd: 1,
    });
    expect(doneOf(events)).toMatchObject({ stopReason: 'completed', costUsd: null });
    const warnings = eventsOf(events, 'error');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ kind: 'warning' });
    expect(warnings[0]!.message).toContain('no price');
  });

  it.each(Object.entries(MODELS))(
    'nudges after the third identical call and stops at the fifth (%s)',
    async (_protocol, model) => {
      const { tool, runs } = makeEchoTool();
      fake = scriptModel(
        [
          ...Array.from({ length: REPEAT_STOP_COUNT }, () =>
            reply.toolCall('list', { text: 'same' }),
          ),
          reply.text('Summary: I was stuck repeating the same call.'),
        ],
        model,
      );
      const events = await runLoop(makeWorkspace(), {
        client: clientFor(fake),
        prompt: 'Echo.',
        tools: [tool],
      });
      fake.assertDone();
      const done = doneOf(events);
      expect(done.stopReason).toBe('repeated_call');
      expect(done.notice).toContain('5 times in a row');
      expect(done.answer).toContain('stuck');
      expect(runs).toHaveLength(4);
      const resultsSeen = (index: number) =>
        sentToolResults(fake!.modelCalls[index]!).at(-1)!.content;
      expect(resultsSeen(2)).not.toContain('times in a row');
      expect(resultsSeen(3)).toContain('exact list call 3 times in a row');
      expect(resultsSeen(4)).toContain('exact list call 4 times in a row');
      expect(resultsSeen(5)).toContain('not run: the model made the same list call 5 times');
      expect(fake.modelCalls[5]!.rawBody).toContain(SUMMARY_MARK);
    },
  );

  it('does not count calls with the same arguments in another key order as different', async () => {
    const { tool } = makeEchoTool();
    fake = scriptModel([
      reply.toolCall('list', { text: 'a', extra: { b: 1, a: 2 } }),
      reply.toolCall('list', { extra: { a: 2, b: 1 }, text: 'a' }),
      reply.toolCall('list', { text: 'a', extra: { b: 1, a: 2 } }),
      reply.text('done'),
    ]);
    const events = await runLoop(makeWorkspace(), {
      client: clientFor(fake),
      prompt: 'Echo.',
      tools: [tool],
    });
    expect(doneOf(events).stopReason).toBe('completed');
    expect(sentToolResults(fake.modelCalls[3]!).at(-1)!.content).toContain('3 times in a row');
  });
});
