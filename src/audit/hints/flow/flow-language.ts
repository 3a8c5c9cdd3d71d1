import type { Language } from '../detect-languages.js';
import type { MaskSyntax } from './mask-code.js';

/** How statements nest: braces and semicolons, or indentation (Python, Ruby). */
export type FlowSyntax = 'brace' | 'indent';

/** What the flow analysis knows about one language. */
export interface FlowLanguage {
  language: Language;
  mask: MaskSyntax;
  /** Names of the request object itself: passed whole into a wrapper, it makes the wrapper a source. */
  requestObjects: RegExp;
  /** Whether `(a, b)` is a tuple (Python), not a comma expression worth its last part. */
  hasTupleLiterals?: boolean;
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
    requestObjects: /^(?:req|request)$/,
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
    requestObjects: /^(?:request|req|httpRequest|servletRequest|httpServletRequest)$/,
  },
  csharp: {
    language: 'csharp',
    mask: { ...PLAIN, ...C_COMMENTS, family: 'brace', quotes: '"\'' },
    requestObjects: /^(?:Request|request)$/,
  },
  go: {
    language: 'go',
    mask: { ...PLAIN, ...C_COMMENTS, family: 'brace', quotes: '"\'`' },
    requestObjects: /^(?:r|req|request)$/,
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
    requestObjects: /^\$request$/,
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
    requestObjects: /^request$/,
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
    requestObjects: /^request$/,
  },
};
