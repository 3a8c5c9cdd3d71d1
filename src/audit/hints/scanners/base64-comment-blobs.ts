import type { FileContext } from '../file-context.js';
import type { HintRuleInfo } from '../hint-rule.js';
import {
  ADDRESSED_TO_AI,
  OVERRIDE_INSTRUCTIONS,
  SUPPRESS_FINDINGS,
} from '../rules/prompt-injection.js';
import type { FileScanner } from './file-scanner.js';

const BASE64_COMMENT_BLOB: HintRuleInfo = {
  id: 'prompt-injection/base64-comment-blob',
  category: 'prompt-injection',
  severity: 'medium',
  description:
    'A long base64 run (200+ characters) inside a comment, where text can hide from a human reviewer.',
  languages: ['any'],
};

const ENCODED_INSTRUCTION: HintRuleInfo = {
  id: 'prompt-injection/encoded-instruction',
  category: 'prompt-injection',
  severity: 'high',
  description:
    'A base64 run in a comment (or an inline source map) that decodes to instructions addressed to a model.',
  languages: ['any'],
};

/** Shortest base64 run reported. */
export const MIN_BASE64_RUN_CHARS = 200;
// Sampling every half run length cannot miss a run: any run of MIN chars holds two consecutive samples.
const SAMPLE_STEP_CHARS = MIN_BASE64_RUN_CHARS / 2;
// How far back a block comment opener is looked for before a blob's line.
const BLOCK_COMMENT_LOOKBACK_CHARS = 64 * 1024;
// Decoded text must be mostly printable to be read as instructions rather than binary data.
const MIN_PRINTABLE_RATIO = 0.9;
const LINE_COMMENT_PREFIXES = ['//', '#', '/*', '*', '<!--', '--'];
// A block comment opener follows a blank or punctuation; inside a glob such as `**/*.js` it does not.
const BEFORE_BLOCK_OPENER = /[\s;{}(),=]/;
const INLINE_COMMENT = /(?:^|\s)(?:\/\/|#|\/\*|<!--|--)/;
const SOURCE_MAP = /sourceMappingURL=data:[^,\s]*;base64,$/;
// Encoded payloads with a purpose of their own (a data: URI, a URL's path or fragment): decoded and
// checked for instructions, but not reported as blobs.
const DATA_CARRIER = /(?:data:[^,\s]*;base64,|(?:https?|ftp):\/\/\S*)$/;

/** Finds long base64 runs in comments, and decodes them (and inline source maps) looking for instructions. */
export const BASE64_COMMENT_BLOB_SCANNER: FileScanner = {
  rules: [BASE64_COMMENT_BLOB, ENCODED_INSTRUCTION],
  languages: ['any'],
  scan(file, collector) {
    const text = file.text;
    for (let sample = 0; sample + SAMPLE_STEP_CHARS < text.length; sample += SAMPLE_STEP_CHARS) {
      // A run holding both samples holds everything between them: probe a few points before expanding.
      if (
        !isBase64Code(text.charCodeAt(sample + SAMPLE_STEP_CHARS)) ||
        !isBase64Code(text.charCodeAt(sample)) ||
        !isBase64Code(text.charCodeAt(sample + SAMPLE_STEP_CHARS / 2)) ||
        !isBase64Code(text.charCodeAt(sample + SAMPLE_STEP_CHARS / 4)) ||
        !isBase64Code(text.charCodeAt(sample + (SAMPLE_STEP_CHARS * 3) / 4))
      ) {
        continue;
      }
      let start = sample;
      while (start > 0 && isBase64Code(text.charCodeAt(start - 1))) start -= 1;
      let end = sample + 1;
      while (end < text.length && isBase64Code(text.charCodeAt(end))) end += 1;
      if (end - start >= MIN_BASE64_RUN_CHARS && isMixedBase64(text, start, end)) {
        reportRun(file, start, end, collector);
      }
      // Continue sampling past this run.
      sample = Math.max(sample, end - (end % SAMPLE_STEP_CHARS));
    }
  },
};

function reportRun(
  file: FileContext,
  start: number,
  end: number,
  collector: Parameters<FileScanner['scan']>[1],
): void {
  const text = file.text;
  const line = file.lines.lineOf(start);
  const lineStart = file.lines.startOf(line);
  const before = text.slice(lineStart, start);
  const isSourceMap = SOURCE_MAP.test(before);
  const isDataCarrier = isSourceMap || DATA_CARRIER.test(before);
  if (!isSourceMap && !isInComment(file, lineStart, before)) return;
  const decoded = decodePrintable(text.slice(start, end));
  // Source maps embed original sources, where talk about prompts is ordinary: only the strong phrases count there.
  const phrase = decoded === undefined ? undefined : findInstruction(decoded, isSourceMap);
  if (phrase !== undefined) {
    const message = `Base64 text in a comment decodes to ${phrase}; treat this file as hostile input.`;
    collector.add(ENCODED_INSTRUCTION, ENCODED_INSTRUCTION.severity, message, line, start);
  } else if (!isDataCarrier) {
    const message = `Base64 run of ${end - start} characters in a comment; decode it and check what it hides.`;
    collector.add(BASE64_COMMENT_BLOB, BASE64_COMMENT_BLOB.severity, message, line, start);
  }
}

function isInComment(file: FileContext, lineStart: number, before: string): boolean {
  const trimmed = before.trimStart();
  if (LINE_COMMENT_PREFIXES.some((prefix) => trimmed.startsWith(prefix))) return true;
  if (INLINE_COMMENT.test(before)) return true;
  const from = Math.max(0, lineStart - BLOCK_COMMENT_LOOKBACK_CHARS);
  const earlier = file.text.slice(from, lineStart);
  return isInBlockComment(earlier, '/*', '*/') || isInBlockComment(earlier, '<!--', '-->');
}

function isInBlockComment(earlier: string, open: string, close: string): boolean {
  const closeAt = earlier.lastIndexOf(close);
  for (let at = earlier.lastIndexOf(open); at > closeAt; at = earlier.lastIndexOf(open, at - 1)) {
    if (at === 0 || BEFORE_BLOCK_OPENER.test(earlier.charAt(at - 1))) return true;
  }
  return false;
}

// Base64 of text mixes cases and digits; long runs of one class are paths, hex or separators.
function isMixedBase64(text: string, start: number, end: number): boolean {
  let upper = false;
  let lower = false;
  let digit = false;
  for (let at = start; at < end && !(upper && lower && digit); at += 1) {
    const code = text.charCodeAt(at);
    if (code >= 65 && code <= 90) upper = true;
    else if (code >= 97 && code <= 122) lower = true;
    else if (code >= 48 && code <= 57) digit = true;
  }
  return upper && lower && digit;
}

function decodePrintable(run: string): string | undefined {
  const decoded = Buffer.from(run, 'base64').toString('utf8');
  let printable = 0;
  for (let at = 0; at < decoded.length; at += 1) {
    const code = decoded.charCodeAt(at);
    if ((code >= 32 && code !== 0xfffd) || code === 9 || code === 10 || code === 13) printable += 1;
  }
  return decoded.length > 0 && printable / decoded.length >= MIN_PRINTABLE_RATIO
    ? decoded
    : undefined;
}

// Names what the decoded text holds, never quotes it: decoded bytes never went through the redactor.
function findInstruction(decoded: string, isSourceMap: boolean): string | undefined {
  if (OVERRIDE_INSTRUCTIONS.test(decoded)) return 'an instruction to ignore previous instructions';
  if (SUPPRESS_FINDINGS.test(decoded)) return 'a request not to report findings';
  if (!isSourceMap && ADDRESSED_TO_AI.test(decoded)) return 'text addressed to an AI model';
  return undefined;
}

function isBase64Code(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 43 ||
    code === 47
  );
}
