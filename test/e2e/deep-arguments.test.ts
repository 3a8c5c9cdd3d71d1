import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import {
  boundToolArguments,
  MAX_ARGUMENT_DEPTH,
  parseToolArguments,
  TOO_DEEP_ARGUMENTS,
} from '../../src/providers/bound-tool-arguments.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { runOy } from '../support/run-oy.js';

/** Hostile tool arguments nested 100,000 deep: the run answers with a tool error and goes on. */
const DEPTH = 100_000;
let cases = 0;
afterAll(() => console.log(`deep arguments: ${cases} cases`));

let fake: FakeProviderServer;
let workspace: string;
beforeEach(async () => {
  fake = await startFakeProvider();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-deep-args-')));
});
afterEach(async () => {
  await fake.close();
});

const deepArrays = `{"path": ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`;
const deepObjects = `{"path": ${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}}`;

describe('tool arguments nested far too deep', () => {
  it.each([
    ['anthropic::claude-haiku-4-5', 'arrays', deepArrays],
    ['anthropic::claude-haiku-4-5', 'objects', deepObjects],
    ['openai::gpt-4o', 'arrays', deepArrays],
  ])('%s, nested %s: a tool error, then the run ends with done', async (model, _kind, json) => {
    fake.enqueue(
      reply.toolCall(
        'read',
        {},
        { toolCalls: [{ name: 'read', arguments: {}, argumentsJson: json }] },
      ),
      reply.text('I will stop nesting.'),
    );
    const result = await runOy(['run', '--json', '--model', model, 'read it'], {
      cwd: workspace,
      env: fakeProviderEnv(fake),
    });
    expect(result.stderr).not.toContain('Maximum call stack');
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as AgentEvent);
    const toolResult = events.find((event) => event.type === 'tool_result');
    expect(JSON.stringify(toolResult)).toContain(`deeper than ${MAX_ARGUMENT_DEPTH} levels`);
    expect(events.at(-1)).toMatchObject({ type: 'done', answer: 'I will stop nesting.' });
    // The second model call carried the tool error back, not the deep value.
    expect(fake.modelCalls).toHaveLength(2);
    expect(JSON.stringify(fake.modelCalls[1]!.body).length).toBeLessThan(50_000);
    fake.assertDone();
    cases += 1;
  });

  it('control: the deep value parses, and serialising it overflows the stack', () => {
    const value = JSON.parse(deepArrays) as unknown;
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(parseToolArguments(deepArrays)).toBe(TOO_DEEP_ARGUMENTS);
    // Arguments an SDK parsed already (Bedrock's Converse) are checked on the value, iteratively.
    expect(boundToolArguments(value)).toBe(TOO_DEEP_ARGUMENTS);
    expect(boundToolArguments(JSON.parse(deepObjects))).toBe(TOO_DEEP_ARGUMENTS);
    expect(boundToolArguments({ path: 'a', nested: [[{ x: 1 }]] })).toEqual({
      path: 'a',
      nested: [[{ x: 1 }]],
    });
    cases += 1;
  });

  it.each([
    [`${MAX_ARGUMENT_DEPTH} levels in all (the cap) are taken`, MAX_ARGUMENT_DEPTH - 1, false],
    [`${MAX_ARGUMENT_DEPTH + 1} levels are refused`, MAX_ARGUMENT_DEPTH, true],
    ['brackets inside strings do not count', DEPTH, false],
  ])('%s', (_name, depth, isTooDeep) => {
    const json =
      _name === 'brackets inside strings do not count'
        ? JSON.stringify({ path: `${'['.repeat(depth)}x`, note: '\\"[[[' })
        : `{"path": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(parseToolArguments(json) === TOO_DEEP_ARGUMENTS).toBe(isTooDeep);
    cases += 1;
  });
});
