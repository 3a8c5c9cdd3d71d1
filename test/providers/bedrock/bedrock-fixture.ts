import { stableRequest as stableRecordedRequest } from '../recorded-requests.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  createBedrockProtocol,
  type BedrockProtocolOptions,
} from '../../fakes/bedrock-protocol.js';
import { FakeProviderServer, type RecordedRequest } from '../../fakes/fake-provider-server.js';
import type { ScriptedReply } from '../../fakes/script.js';
import type { BedrockSettings } from '../../../src/providers/provider-settings.js';
import type { ModelRef, StreamEvent } from '../../../src/providers/types.js';

/** Recognisable fake credentials: tests assert neither ever shows up in an error. */
export const FAKE_ACCESS_KEY_ID = 'AKIAFAKEBEDROCK7F3A9C';
export const FAKE_SECRET_ACCESS_KEY = 'fake-secret-access-key-1e5b7d9f0a2c4e6b8d';

/** A Claude model through a US inference profile: the id has both `.` and `:` to encode. */
export const CLAUDE_MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
export const REGION = 'us-east-1';

/** SigV4 and transport headers that change with the clock, the machine, the SDK version or the port. */
const VOLATILE_HEADERS =
  /^(authorization|x-amz-date|x-amz-content-sha256|x-amz-security-token|amz-sdk-invocation-id|x-amz-user-agent|user-agent|host|content-length|connection)$/;

/**
 * Replaces every AWS_ variable for the test file with static fake credentials, no profile, no config
 * files and no metadata service, and restores them afterwards. `extra` overrides or removes (undefined).
 */
export function useAwsEnvironment(
  extra: () => Record<string, string | undefined> = () => ({}),
): void {
  let saved: Record<string, string | undefined> = {};
  let configDir = '';
  beforeAll(() => {
    saved = Object.fromEntries(
      Object.keys(process.env)
        .filter(isAwsVariable)
        .map((name) => [name, process.env[name]]),
    );
    for (const name of Object.keys(saved)) delete process.env[name];
    configDir = mkdtempSync(path.join(tmpdir(), 'oy-aws-'));
    const environment: Record<string, string | undefined> = {
      AWS_ACCESS_KEY_ID: FAKE_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: FAKE_SECRET_ACCESS_KEY,
      AWS_CONFIG_FILE: path.join(configDir, 'config'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(configDir, 'credentials'),
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...extra(),
    };
    for (const [name, value] of Object.entries(environment)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  afterAll(() => {
    for (const name of Object.keys(process.env).filter(isAwsVariable)) delete process.env[name];
    for (const [name, value] of Object.entries(saved))
      if (value !== undefined) process.env[name] = value;
    rmSync(configDir, { recursive: true, force: true });
  });
}

function isAwsVariable(name: string): boolean {
  return name.startsWith('AWS_');
}

const started: FakeProviderServer[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((fake) => fake.close()));
});

/** A fake Bedrock with this script, closed after the test. */
export async function startBedrockFake(
  script: ScriptedReply[],
  options: BedrockProtocolOptions = {},
): Promise<FakeProviderServer> {
  const fake = await FakeProviderServer.start({
    handlers: [createBedrockProtocol(options)],
    script,
  });
  started.push(fake);
  return fake;
}

export function bedrockRef(model: string = CLAUDE_MODEL): ModelRef {
  return { provider: 'bedrock', model, id: `bedrock::${model}` };
}

export function settingsFor(
  fake: FakeProviderServer,
  extra: Partial<BedrockSettings> = {},
): BedrockSettings {
  return { region: REGION, endpoint: fake.url, ...extra };
}

export async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const seen: StreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/** The events a stream yielded before it failed, and the failure (fails the test when it does not fail). */
export async function collectUntilFailure(
  events: AsyncIterable<StreamEvent>,
): Promise<{ seen: StreamEvent[]; error: unknown }> {
  const seen: StreamEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
  } catch (error) {
    return { seen, error };
  }
  throw new Error('expected the stream to fail');
}

export { bodyOf, rejectionOf } from '../recorded-requests.js';

/** A recorded request without the signature and what varies between machines and runs, for snapshots. */
export function stableRequest(request: RecordedRequest | undefined): Record<string, unknown> {
  return stableRecordedRequest(request, VOLATILE_HEADERS);
}
