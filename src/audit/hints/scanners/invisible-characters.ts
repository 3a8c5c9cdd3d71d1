import { LANGUAGES, type Language } from '../detect-languages.js';
import type { FileContext } from '../file-context.js';
import type { HintRuleInfo } from '../hint-rule.js';
import { isOutsideQuotes } from '../is-outside-quotes.js';
import type { FileScanner } from './file-scanner.js';

const BIDI_CONTROL: HintRuleInfo = {
  id: 'prompt-injection/bidi-control',
  category: 'prompt-injection',
  severity: 'high',
  description:
    'Bidirectional override or isolate characters (U+202A-U+202E, U+2066-U+2069) that make code display differently from how it runs (Trojan Source).',
  languages: ['any'],
};

const ZERO_WIDTH: HintRuleInfo = {
  id: 'prompt-injection/zero-width',
  category: 'prompt-injection',
  severity: 'medium',
  description:
    'Zero-width characters (U+200B-U+200D, U+2060, U+FEFF other than a leading byte-order mark) that hide text or make identifiers look alike.',
  languages: ['any'],
};

const HIDDEN_LINE_BREAK: HintRuleInfo = {
  id: 'prompt-injection/hidden-line-break',
  category: 'prompt-injection',
  severity: 'high',
  description:
    'A carriage return alone, or U+2028/U+2029, in code: the language ends a comment or a line there while editors and reviews may show one line, so code after it runs though it reads as a comment.',
  languages: ['any'],
};
// A carriage return not followed by a line feed, or JavaScript's line and paragraph separators.
const HIDDEN_BREAK = /\r(?!\n)|[\u2028\u2029]/g;
// A file with more of them than this uses them as its line ends (old Mac files), not to hide a line.
const MAX_HIDDEN_BREAKS = 20;

const INVISIBLE = /[\u200B-\u200D\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;
// V8 answers this at once for a one-byte (Latin-1) string, which most source files are.
// eslint-disable-next-line no-control-regex -- the full Latin-1 range, NUL included
const BEYOND_LATIN_1 = /[^\u0000-\u00FF]/;
const ZERO_WIDTH_NON_JOINER = 0x200c;
const ZERO_WIDTH_JOINER = 0x200d;
// Below this, characters are Latin letters, digits, punctuation and combining marks; joiners
// between two characters above it are ordinary in emoji sequences and in Indic and Arabic scripts.
const FIRST_NON_LATIN_CODE = 0x0370;

/** Finds Trojan Source bidirectional controls and zero-width characters. */
export const INVISIBLE_CHARACTER_SCANNER: FileScanner = {
  rules: [BIDI_CONTROL, ZERO_WIDTH, HIDDEN_LINE_BREAK],
  languages: ['any'],
  scan(file, collector) {
    const text = file.text;
    if (
      (text.includes('\r') || text.includes('\u2028') || text.includes('\u2029')) &&
      file.languages.some((language) => CODE_LANGUAGES.has(language))
    ) {
      const breaks = [...text.matchAll(HIDDEN_BREAK)];
      if (breaks.length <= MAX_HIDDEN_BREAKS) {
        for (const found of breaks) {
          const offset = found.index;
          const name =
            found[0] === '\r' ? 'a carriage return alone' : codePointName(text.charCodeAt(offset));
          collector.add(
            HIDDEN_LINE_BREAK,
            HIDDEN_LINE_BREAK.severity,
            `${name} ends the line here for the language, not for most editors: what follows it may run though it reads as part of a comment; use a plain line break.`,
            file.lines.lineOf(offset),
            offset,
          );
        }
      }
    }
    if (!BEYOND_LATIN_1.test(text)) return;
    INVISIBLE.lastIndex = 0;
    for (let found = INVISIBLE.exec(text); found !== null; found = INVISIBLE.exec(text)) {
      const offset = found.index;
      const code = text.charCodeAt(offset);
      if (code === 0xfeff && offset === 0) continue;
      if (isBidiControl(code)) {
        collector.add(
          BIDI_CONTROL,
          BIDI_CONTROL.severity,
          bidiMessage(code),
          file.lines.lineOf(offset),
          offset,
        );
      } else if (!isScriptJoiner(text, offset, code) || isInCodeIdentifier(file, offset)) {
        collector.add(
          ZERO_WIDTH,
          ZERO_WIDTH.severity,
          zeroWidthMessage(code),
          file.lines.lineOf(offset),
          offset,
        );
      }
    }
  },
};

const MAX_IDENTIFIER_LINE_CHARS = 500;
// Languages whose identifiers may hold joiners (a homoglyph trick); data and prose files have none.
const CODE_LANGUAGES: ReadonlySet<Language> = new Set(
  LANGUAGES.filter((language) => language !== 'template' && language !== 'workflow'),
);

// A joiner outside strings and comments of code sits in an identifier, where script text has no business.
function isInCodeIdentifier(file: FileContext, offset: number): boolean {
  if (!file.languages.some((language) => CODE_LANGUAGES.has(language))) return false;
  const line = file.lines.lineOf(offset);
  const lineStart = file.lines.startOf(line);
  // A very long line is data or minified code, not an identifier a person reads.
  if (file.lines.endOf(line) - lineStart > MAX_IDENTIFIER_LINE_CHARS) return false;
  if (file.isCommentLine(lineStart)) return false;
  const text = file.lines.textOf(line);
  const position = offset - lineStart;
  return isOutsideQuotes(text, position) && !file.isInTrailingComment(text, position);
}

function isBidiControl(code: number): boolean {
  return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

function isScriptJoiner(text: string, offset: number, code: number): boolean {
  if (code !== ZERO_WIDTH_JOINER && code !== ZERO_WIDTH_NON_JOINER) return false;
  return (
    isScriptCharacter(text.charCodeAt(offset - 1)) && isScriptCharacter(text.charCodeAt(offset + 1))
  );
}

// A visible non-Latin character: a run of joiners alone is hidden data, not script.
function isScriptCharacter(code: number): boolean {
  if (Number.isNaN(code) || code < FIRST_NON_LATIN_CODE) return false;
  return !(
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2069) ||
    code === 0xfeff
  );
}

function codePointName(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

function bidiMessage(code: number): string {
  return `Bidirectional control character ${codePointName(code)}: the code may run differently from how it reads (Trojan Source); inspect the raw bytes.`;
}

function zeroWidthMessage(code: number): string {
  return `Zero-width character ${codePointName(code)}: it can hide text or make two identifiers look the same; inspect the raw bytes.`;
}
