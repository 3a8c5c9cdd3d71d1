import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { runOy } from '../support/run-oy.js';

/** `oy run` tool loops with thinking on, continued with -c, through the built CLI against validating fakes. */
const MODELS = ['anthropic::claude-sonnet-5', 'bedrock::global.anthropic.claude-sonnet-5'];

let fake: FakeProviderServer;
let workspace: string;
beforeEach(async () => {
  fake = await startFakeProvider();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-thinking-e2e-')));
  writeFileSync(path.join(workspace, 'notes.txt'), 'hello\n');
});
afterEach(async () => {
  await fake.close();
});

describe.each(MODELS)('oy run with a thinking model (%s)', (model) => {
  it('runs a tool loop, prints thinking as JSON events, and continues the session', async () => {
    const env = {
      ...fakeProviderEnv(fake),
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_CONFIG_FILE: path.join(workspace, 'no-aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(workspace, 'no-aws-credentials'),
    };
    fake.enqueue(
      { ...reply.thinkingToolCall('I will list the files.', 'list', { path: '.' }), text: '\n\n' },
      reply.thinkingText('notes.txt is there.', 'There is one file.'),
    );
    const first = await runOy(['run', '--json', '--model', model, 'what is here?'], {
      cwd: workspace,
      env,
    });
    expect(first.code, first.stderr).toBe(0);
    const events = first.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; text?: string });
    expect(
      events
        .filter((event) => event.type === 'thinking_delta')
        .map((e) => e.text)
        .join(''),
    ).toContain('I will list the files.');
    expect(events.at(-1)).toMatchObject({ type: 'done', answer: 'There is one file.' });

    fake.enqueue(reply.thinkingText('Still one.', 'Yes, one file.'));
    const second = await runOy(['run', '-c', '--model', model, 'and now?'], {
      cwd: workspace,
      env,
    });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('Yes, one file.');
    // The replayed session carried signed thinking and no whitespace-only text: the fake checked every request.
    expect(JSON.stringify(fake.modelCalls.at(-1)!.body)).not.toMatch(/"text":"\s*"/);
    fake.assertDone();
  });
});
