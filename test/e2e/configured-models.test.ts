import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/types.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { runOy } from '../support/run-oy.js';

/**
 * A model the price table lacks: `--max-cost` is refused until the user config's `models` gives its price;
 * the same entry in the repository's `.oy/config.json` must not count (it could lower the price).
 */
let fake: FakeProviderServer;
let model: string;
let repo: string;
let cases = 0;

beforeAll(() => {
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-config-models-')));
  writeFileSync(path.join(repo, 'app.js'), 'export const add = (a, b) => a + b;\n');
  writeFileSync(path.join(repo, '.gitignore'), 'out/\n');
  commitAll(repo);
});
beforeEach(async () => {
  fake = await startFakeProvider();
  // A local OpenAI-compatible server needs no key: the fake answers on its port.
  model = `local-${new URL(fake.url).port}::house-model`;
  cases++;
});
afterEach(async () => {
  await fake.close();
});
afterAll(() => console.log(`configured models: ${cases} cases`));

const PRICE = { input: 1, output: 2 };

function userConfig(models: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'oy-user-config-')), 'config.json');
  writeFileSync(file, JSON.stringify({ models }));
  return file;
}

function oy(args: string[], configFile: string) {
  return runOy(args, { cwd: repo, env: { OY_CONFIG: configFile } });
}

describe('a price in the user config makes cost limits work', () => {
  it('oy audit --max-cost on an unpriced model is refused, and the hint names the config key', async () => {
    const result = await oy(['audit', '--model', model, '--max-cost', '1'], userConfig({}));
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^error: --max-cost cannot be enforced/m);
    expect(result.stderr).toContain(
      `hint: give its price in the user config ("models": {"${model}": {"price"`,
    );
    expect(fake.modelCalls).toHaveLength(0);
  });

  it('with a config price the audit runs under --max-cost and reports its cost', async () => {
    fake.enqueue({
      ...reply.text(JSON.stringify({ findings: [] })),
      usage: { inputTokens: 1000, outputTokens: 100 },
    });
    const result = await oy(
      [
        'audit',
        '--model',
        model,
        '--max-cost',
        '1',
        '--format',
        'json',
        '--out',
        'out/report.json',
        '--no-cache',
      ],
      userConfig({ [model]: { price: PRICE } }),
    );
    expect(result.code, result.stderr).toBe(0);
    fake.assertDone();
    const report = JSON.parse(
      readFileSync(path.join(repo, 'out', 'report.json'), 'utf8'),
    ) as AuditReport;
    // 1,000 input tokens at $1 and 100 output tokens at $2 per million.
    expect(report.coverage.costUsd).toBeCloseTo(0.0012, 6);
  });

  it('the same price in the project file is ignored with a warning: still refused, no model call', async () => {
    const project = path.join(repo, '.oy');
    mkdirSync(project, { recursive: true });
    writeFileSync(
      path.join(project, 'config.json'),
      JSON.stringify({ models: { [model]: { price: PRICE } } }),
    );
    try {
      const result = await oy(['audit', '--model', model, '--max-cost', '1'], userConfig({}));
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/"models" is ignored in a project file/);
      expect(result.stderr).toMatch(/^error: --max-cost cannot be enforced/m);
      expect(fake.modelCalls).toHaveLength(0);
    } finally {
      writeFileSync(path.join(project, 'config.json'), '{}');
    }
  });

  it('oy run --max-cost: refused without a price, and runs with the config price', async () => {
    const refused = await oy(['run', '--model', model, '--max-cost', '1', 'hi'], userConfig({}));
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`"models": {"${model}": {"price"`);
    fake.enqueue(reply.text('Hello.', { inputTokens: 10, outputTokens: 5 }));
    const ran = await oy(
      ['run', '--model', model, '--max-cost', '1', 'hi'],
      userConfig({ [model]: { price: PRICE } }),
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('Hello.');
    fake.assertDone();
  });
});

describe('the context window in the user config sizes audit chunks', () => {
  it('a chunk, the map prompt and the map answer fit the configured window; a large window keeps the setting', async () => {
    const plan = async (contextWindow: number) => {
      const result = await oy(
        ['audit', '--model', model, '--dry-run', '--json'],
        userConfig({ [model]: { contextWindow } }),
      );
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as { chunkTokens: number };
    };
    // 16,384 less the 8,192-token map answer and a 4,096-token prompt reserve.
    expect((await plan(16_384)).chunkTokens).toBe(4096);
    expect((await plan(1_000_000)).chunkTokens).toBe(64_000);
    expect(fake.modelCalls).toHaveLength(0);
  });
});

describe('request facts for a model the table lacks come from the user config', () => {
  const awsEnv = (configFile: string) => ({
    OY_CONFIG: configFile,
    ...fakeProviderEnv(fake),
    AWS_EC2_METADATA_DISABLED: 'true',
  });
  const run = (modelId: string, configFile: string) =>
    runOy(['run', '--model', modelId, 'list the files'], { cwd: repo, env: awsEnv(configFile) });
  const loop = () => fake.enqueue(reply.toolCall('list', { path: '.' }), reply.text('One file.'));

  it('Bedrock: cache points, toolResult.status and Converse for tools follow the entry; the table default is the control', async () => {
    const bedrockModel = 'bedrock::acme.house-model-v1:0';
    loop();
    const configured = await run(
      bedrockModel,
      userConfig({
        [bedrockModel]: { promptCache: true, toolResultStatus: true, streamingToolUse: false },
      }),
    );
    expect(configured.code, configured.stderr).toBe(0);
    const [first, second] = fake.modelCalls;
    // No streaming tool use: the tool loop goes through Converse, not ConverseStream.
    expect([first!.path, second!.path].every((p) => p.endsWith('/converse'))).toBe(true);
    expect(first!.rawBody).toContain('"cachePoint"');
    expect(second!.rawBody).toContain('"status":"success"');

    loop();
    const table = await run(bedrockModel, userConfig({}));
    expect(table.code, table.stderr).toBe(0);
    const [third, fourth] = fake.modelCalls.slice(2);
    expect([third!.path, fourth!.path].every((p) => p.endsWith('/converse-stream'))).toBe(true);
    expect(third!.rawBody).not.toContain('"cachePoint"');
    expect(fourth!.rawBody).not.toContain('"status":"success"');
    fake.assertDone();
  });

  it('Anthropic-compatible: an adaptive thinking model gets room to think, within its configured output limit', async () => {
    const claudeLike = 'anthropic::house-claude';
    fake.enqueue(reply.thinkingText('Thinking.', 'Hello.'), reply.text('Hello.'));
    const configured = await run(
      claudeLike,
      userConfig({ [claudeLike]: { thinking: 'adaptive', maxOutputTokens: 20_000 } }),
    );
    expect(configured.code, configured.stderr).toBe(0);
    expect((fake.modelCalls[0]!.body as { max_tokens: number }).max_tokens).toBe(20_000);
    // Control: without the entry, the answer's share alone (no thinking room).
    const table = await run(claudeLike, userConfig({}));
    expect(table.code, table.stderr).toBe(0);
    expect((fake.modelCalls[1]!.body as { max_tokens: number }).max_tokens).toBe(8192);
    fake.assertDone();
  });
});
