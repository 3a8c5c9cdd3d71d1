/** Environment variables as the caller passes them in; core code never reads process.env. */
export type ProviderEnvironment = Readonly<Record<string, string | undefined>>;

/** A variable's value, with an empty or blank one counted as unset (so `FOO= oy` does not send an empty key). */
export function readVariable(env: ProviderEnvironment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
