import { readFile } from 'node:fs/promises';
import { ConfigError } from '../shared/errors.js';
import { writeFileAtomic } from '../shared/write-file-atomic.js';

/** The user config is private (README.md): 0600 in a 0700 directory. */
const CONFIG_FILE_MODE = 0o600;
const CONFIG_DIR_MODE = 0o700;

/**
 * Sets top-level keys in the user config file and keeps every other key as it was. Writes atomically;
 * refuses to touch a file that is not a JSON object rather than overwrite what the user wrote.
 */
export async function saveUserConfigValues(
  filePath: string,
  values: Record<string, unknown>,
): Promise<void> {
  const current = await readJsonObject(filePath);
  const next = { ...current, ...values };
  await writeFileAtomic(filePath, JSON.stringify(next, null, 2) + '\n', {
    mode: CONFIG_FILE_MODE,
    dirMode: CONFIG_DIR_MODE,
  });
}

async function readJsonObject(filePath: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    throw new ConfigError(`cannot read config file ${filePath} (${code ?? 'unknown error'})`, {
      hint: 'check its permissions',
    });
  }
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `config file ${filePath} is not valid JSON: ${(error as Error).message}`,
      {
        hint: 'fix it or move it aside; oy will not overwrite it',
      },
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${filePath} must hold a JSON object`, {
      hint: 'fix it or move it aside; oy will not overwrite it',
    });
  }
  return parsed as Record<string, unknown>;
}
