import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgentState } from '../../../src/agent/loop/run-agent-loop.js';
import { allTools } from '../../../src/agent/tools/all-tools.js';
import type { ScriptedModelClient } from '../../fakes/scripted-model-client.js';
import { reply, type ScriptedAnswer } from '../../fakes/script.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import {
  MODELS,
  clientFor,
  scriptModel,
  doneOf,
  eventsOf,
  makeWorkspace,
  runLoop,
  sentToolResults,
} from './loop-harness.js';

let fake: ScriptedModelClient;

function call(id: string, name: string, args: unknown): ScriptedAnswer {
  return {
    kind: 'answer',
    toolCalls: [{ id, name, arguments: args }],
    usage: { inputTokens: 100, outputTokens: 20 },
  };
}

describe.each(Object.entries(MODELS))('a multi-step task through %s', (protocol, model) => {
  it('reads, edits, runs a command, then answers, sending each result back under its call id', async () => {
    const root = makeWorkspace();
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'greet.js'), "console.log('hello world');\n");
    const ids =
      protocol === 'anthropic'
        ? ['toolu_r1', 'toolu_e2', 'toolu_b3']
        : ['call_r1', 'call_e2', 'call_b3'];
    fake = scriptModel(
      [
        call(ids[0]!, 'read', { path: 'src/greet.js' }),
        call(ids[1]!, 'edit', {
          path: 'src/greet.js',
          old_string: 'hello world',
          new_string: 'hello oy',
        }),
        call(ids[2]!, 'bash', { command: 'node src/greet.js' }),
        reply.text('Changed the greeting in src/greet.js; running it prints hello oy.', {
          inputTokens: 200,
          outputTokens: 30,
        }),
      ],
      model,
    );
    const state = createAgentState();
    const events = await runLoop(root, {
      client: clientFor(fake),
      prompt: 'Change the greeting to "hello oy" and check it.',
      tools: allTools(),
      state,
    });
    fake.assertDone();
    const done = doneOf(events);
    expect(done.stopReason).toBe('completed');
    expect(done.answer).toContain('hello oy');
    expect(done.modelCalls).toBe(4);
    expect(done.usage).toMatchObject({ inputTokens: 500, outputTokens: 90 });
    expect(done.costUsd).toBeGreaterThan(0);
    expect(readFileSync(path.join(root, 'src', 'greet.js'), 'utf8')).toBe(
      "console.log('hello oy');\n",
    );

    const requests = fake.modelCalls;
    expect(sentToolResults(requests[1]!).map((result) => result.id)).toEqual([ids[0]]);
    expect(sentToolResults(requests[1]!)[0]!.content).toContain('hello world');
    expect(sentToolResults(requests[2]!).map((result) => result.id)).toEqual(ids.slice(0, 2));
    const commandResult = sentToolResults(requests[3]!)[2]!;
    expect(commandResult.id).toBe(ids[2]);
    expect(commandResult.content).toContain('hello oy');
    expect(commandResult.content).toContain('"exit_code":0');
    // Every event a tool call produced, in order, with the results the model read.
    const results = eventsOf(events, 'tool_result');
    expect(results.map((result) => [result.tool, result.ok])).toEqual([
      ['read', true],
      ['edit', true],
      ['bash', true],
    ]);
    expect(eventsOf(events, 'approval').every((event) => event.outcome === 'allowed')).toBe(true);
    expect(state.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(state.turns).toBe(1);
  });

  it('never sends a secret the model read from a workspace file, nor one in the prompt', async () => {
    const root = makeWorkspace();
    const secrets = createSecretFactory(7);
    const planted = [secrets.awsAccessKeyId(), secrets.githubToken('p'), secrets.stripeLive('s')];
    writeFileSync(
      path.join(root, 'settings.js'),
      `export const aws = '${planted[0]}';\nexport const gh = "${planted[1]}";\n`,
    );
    fake = scriptModel(
      [call('call_1', 'read', { path: 'settings.js' }), reply.text('It holds two credentials.')],
      model,
    );
    const events = await runLoop(root, {
      client: clientFor(fake),
      prompt: `What is in settings.js? My key is ${planted[2]}.`,
      tools: allTools(),
    });
    expect(doneOf(events).stopReason).toBe('completed');
    const sent = fake.modelCalls.map((request) => request.rawBody).join('\n');
    expect(sent).toContain('[REDACTED:');
    for (const secret of planted) expect(sent).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(planted[0]);
  });
});
