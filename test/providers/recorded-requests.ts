import type { FakeProviderServer, RecordedRequest } from '../fakes/fake-provider-server.js';

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** The JSON body of the nth model call the fake saw. */
export function bodyOf(fake: FakeProviderServer, index: number): Record<string, unknown> {
  const call = fake.modelCalls[index];
  if (!call) throw new Error(`no model call #${index}`);
  return call.body as Record<string, unknown>;
}

/**
 * A recorded request without the headers that vary between machines and runs (`volatileHeaders`),
 * with each secret value masked, sorted so it can be snapshot.
 */
export function stableRequest(
  request: RecordedRequest | undefined,
  volatileHeaders: RegExp,
  masks: Record<string, string> = {},
): Record<string, unknown> {
  if (!request) throw new Error('no such request');
  const mask = (value: string) =>
    Object.entries(masks).reduce((text, [secret, label]) => text.replaceAll(secret, label), value);
  const headers = Object.fromEntries(
    Object.entries(request.headers)
      .filter(([name]) => !volatileHeaders.test(name))
      .map(([name, value]) => [name, mask(value)] as const)
      .sort(([left], [right]) => left.localeCompare(right)),
  );
  return { method: request.method, path: request.path, headers, body: request.body };
}
