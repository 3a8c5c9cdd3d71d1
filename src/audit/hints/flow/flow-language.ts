import type { Language } from '../detect-languages.js';
import type { MaskSyntax } from './mask-code.js';

/** How statements nest: braces and semicolons, or indentation (Python, Ruby). */
export type FlowSyntax = 'brace' | 'indent';

/** What the flow analysis knows about one language. */
export interface FlowLanguage {
  language: Language;
  mask: MaskSyntax;
  /** Whether `(a, b)` is a tuple (Python), not a comma expression worth its last part. */
  hasTupleLiterals?: boolean;
  /** Whether a method is called without parentheses (Ruby's `params[:n].to_i`): a name read after a dot may be a call. */
  callsWithoutParentheses?: boolean;
}

const C_COMMENTS = { lineComments: ['//'], hasBlockComments: true } as const;
const PLAIN = {
  hasRegexLiterals: false,
  hasCodeTags: false,
  hasStringPrefixes: false,
  interpolation: {},
} as const;

/** The languages whose files the flow analysis reads; others keep the assignment look-back. */
export const FLOW_LANGUAGES: Partial<Record<Language, FlowLanguage>> = {
  js: {
    language: 'js',
    mask: {
      ...PLAIN,
      ...C_COMMENTS,
      family: 'brace',
      quotes: '"\'`',
      interpolation: { '`': 'dollar-brace' },
      hasRegexLiterals: true,
    },
  },
  java: {
    language: 'java',
    mask: {
      ...PLAIN,
      ...C_COMMENTS,
      family: 'brace',
      quotes: '"\'',
      interpolation: { '"': 'dollar' },
      hasTextBlocks: true,
    },
  },
  csharp: {
    language: 'csharp',
    mask: { ...PLAIN, ...C_COMMENTS, family: 'brace', quotes: '"\'' },
  },
  go: {
    language: 'go',
    mask: { ...PLAIN, ...C_COMMENTS, family: 'brace', quotes: '"\'`' },
  },
  php: {
    language: 'php',
    mask: {
      ...PLAIN,
      family: 'brace',
      lineComments: ['//', '#'],
      hasBlockComments: true,
      quotes: '"\'',
      interpolation: { '"': 'php' },
      multilineQuotes: '"\'',
      hasCodeTags: true,
    },
  },
  python: {
    language: 'python',
    mask: {
      ...PLAIN,
      family: 'indent',
      lineComments: ['#'],
      hasBlockComments: false,
      quotes: '"\'',
      hasStringPrefixes: true,
    },
    hasTupleLiterals: true,
  },
  ruby: {
    language: 'ruby',
    mask: {
      ...PLAIN,
      family: 'indent',
      lineComments: ['#'],
      hasBlockComments: false,
      quotes: '"\'`',
      interpolation: { '"': 'hash-brace', '`': 'hash-brace' },
      hasRubyLiterals: true,
      hasRegexLiterals: true,
    },
    callsWithoutParentheses: true,
  },
};
