import { stableRequest as stableRecordedRequest } from '../recorded-requests.js';
import { afterEach } from 'vitest';
import { FakeProviderServer, type RecordedRequest } from '../../fakes/fake-provider-server.js';
import { openaiProtocol } from '../../fakes/openai-protocol.js';
import type { ScriptedReply } from '../../fakes/script.js';
import type { OpenAiSettings } from '../../../src/providers/provider-settings.js';
import type { ModelRef, ProviderName, StreamEvent } from '../../../src/providers/types.js';

/** A recognisable key: tests assert it never shows up in an error. */
export const FAKE_OPENAI_KEY = 'fake-openai-key-7f3a9c1e5b';

/** Headers that change with the machine, the SDK version or the port. */
const VOLATILE_HEADERS = /^(host|user-agent|content-length|connection|x-stainless-.*)$/;

const started: FakeProviderServer[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((fake) => fake.close()));
});

/** A fake OpenAI-compatible server with this script, closed after the test. */
export async function startOpenAiFake(
  script: ScriptedReply[],
  models: string[] = [],
): Promise<FakeProviderServer> {
  const fake = await FakeProviderServer.start({ handlers: [openaiProtocol], script, models });
  started.push(fake);
  return fake;
}

export function openAiRef(
  model: string,
  provider: ProviderName = 'openai',
  port?: number,
): ModelRef {
  const prefix = provider === 'local' ? `local-${port ?? 0}` : provider;
  return { provider, model, id: `${prefix}::${model}`, ...(port === undefined ? {} : { port }) };
}

export function settingsFor(
  fake: FakeProviderServer,
  extra: Partial<OpenAiSettings> = {},
): OpenAiSettings {
  return { apiKey: FAKE_OPENAI_KEY, baseURL: `${fake.url}/v1`, ...extra };
}

export async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const seen: StreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

export { bodyOf, rejectionOf } from '../recorded-requests.js';

/** A recorded request without the signature and what varies between machines and runs, for snapshots. */
export function stableRequest(request: RecordedRequest | undefined): Record<string, unknown> {
  return stableRecordedRequest(request, VOLATILE_HEADERS, {
    [FAKE_OPENAI_KEY]: '<FAKE_OPENAI_KEY>',
  });
}
