import type { SecurityHint } from '../types.js';
import { applyMatchers } from './apply-matchers.js';
import { compileMatchers, type CompiledMatchers } from './compile-matchers.js';
import { detectLanguages, type Language } from './detect-languages.js';
import { FileContext } from './file-context.js';
import { FILE_SCANNERS } from './file-scanners.js';
import { HintCollector } from './hint-collector.js';
import { LINE_RULES } from './line-rules.js';

// Few distinct language sets exist (one per extension family), so compiled scans are kept for the run.
const compiledByLanguages = new Map<string, CompiledMatchers>();

/**
 * Security hints for one file: deterministic pointers at places worth a reviewer's attention,
 * possibly false. `text` is the already-redacted text; excerpts are taken from it.
 * Hints are ordered by line, then rule id.
 */
export function indexFile(file: { path: string; text: string }): SecurityHint[] {
  const languages = detectLanguages(file.path, file.text);
  const context = new FileContext(file.path, file.text, languages);
  const collector = new HintCollector(context);
  applyMatchers(context, compiledFor(languages), collector);
  for (const scanner of FILE_SCANNERS) {
    if (scanner.languages.some((l) => l === 'any' || languages.includes(l))) {
      scanner.scan(context, collector);
    }
  }
  return collector.hints.sort(
    (a, b) => a.line - b.line || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0),
  );
}

function compiledFor(languages: readonly Language[]): CompiledMatchers {
  const key = languages.join(',');
  let compiled = compiledByLanguages.get(key);
  if (compiled === undefined) {
    compiled = compileMatchers(LINE_RULES, languages);
    compiledByLanguages.set(key, compiled);
  }
  return compiled;
}
