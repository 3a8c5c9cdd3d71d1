/**
 * The server's own word on retrying (`x-should-retry`, sent by Anthropic and OpenAI): `true` or `false`
 * overrides what the status suggests, as the official SDKs do; anything else says nothing.
 */
export function readShouldRetry(headers: Headers | undefined): { shouldRetry?: boolean } {
  const value = headers?.get('x-should-retry')?.trim().toLowerCase();
  if (value === 'true') return { shouldRetry: true };
  if (value === 'false') return { shouldRetry: false };
  return {};
}
