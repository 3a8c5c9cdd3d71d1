import { LANGUAGES, type Language } from '../detect-languages.js';
import type { RuleExample } from '../hint-rule.js';
import { code, express, flask, goHandler, php, railsAction, servlet } from './code.js';

/** One entry of a `<category>.examples.json` file, as written there. */
export interface ExampleEntry {
  language: string;
  path?: string;
  flagged: readonly Snippet[];
  safe: readonly Snippet[];
}

/** A snippet's lines, or `{ "flask": [...] }`: body lines wrapped in that handler shape. */
type Snippet = readonly string[] | Readonly<Record<string, readonly string[]>>;

// The handler shapes a snippet may be written inside, so an example shows only what matters.
const FRAMES: Readonly<Record<string, (...body: string[]) => string>> = {
  express,
  flask,
  servlet,
  'go-handler': goHandler,
  'rails-action': railsAction,
  php,
};

function snippet(written: Snippet, where: string): string {
  if (Array.isArray(written)) return code(...(written as readonly string[]));
  const [name, ...others] = Object.keys(written);
  const frame = name === undefined ? undefined : FRAMES[name];
  const body =
    name === undefined ? undefined : (written as Record<string, readonly string[]>)[name];
  if (frame === undefined || body === undefined || others.length > 0)
    throw new Error(
      `${where}: a snippet is lines or one of ${Object.keys(FRAMES).join(', ')} with lines, got ${JSON.stringify(written)}`,
    );
  return frame(...body);
}

/** A rule file's examples from its JSON file: languages checked, frames applied. */
export function readExamples(entries: readonly ExampleEntry[], file: string): RuleExample[] {
  return entries.map((entry, index) => {
    const where = `${file} entry ${index + 1}`;
    if (!(LANGUAGES as readonly string[]).includes(entry.language))
      throw new Error(
        `${where}: language must be one of ${LANGUAGES.join(', ')}, got ${entry.language}`,
      );
    return {
      language: entry.language as Language,
      ...(entry.path === undefined ? {} : { path: entry.path }),
      flagged: entry.flagged.map((lines) => snippet(lines, where)),
      safe: entry.safe.map((lines) => snippet(lines, where)),
    };
  });
}
