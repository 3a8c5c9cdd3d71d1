import type { HintCategory, Severity } from '../types.js';
import type { Language } from './detect-languages.js';
import type { SinkKind } from './flow/flow-value.js';
import type { SinkArgument } from './flow/sink-argument.js';

/** A language a rule applies to; `any` means every file, whatever its language. */
export type RuleLanguage = Language | 'any';

/** Lines around a hit (clipped to the file) that must, or must not, hold a pattern. */
export interface NearCondition {
  before: number;
  after: number;
  requires?: RegExp;
  forbids?: RegExp;
  /** `requires` is also met by the name of the function or class the hit sits in (`generateResetToken`). */
  isEnclosingNameEnough?: boolean;
}

/** When a hit is worse than the rule's default: the line, or lines near it, show the risky form. */
export interface Escalation {
  severity: Severity;
  onLine?: RegExp;
  near?: { pattern: RegExp; before: number; after: number };
}

/** One way a rule recognises its pattern in some languages. Patterns never carry the `g` or `y` flag. */
export interface LineMatcher {
  languages: readonly RuleLanguage[];
  /**
   * Lowercase literals; a line is tested only when one occurs in it, matched case-insensitively
   * and, when it begins with a letter, digit or underscore, only at the start of a word.
   */
  keywords: readonly string[];
  /** Whether the keywords are found inside words too (`testingPassword`, `DB_PASSWORD`). */
  isKeywordInsideWords?: boolean;
  /** Tested on the line, or on a window around the keyword when the line is very long. */
  pattern: RegExp;
  /** A line that also matches this shows a safe form: no hit. */
  unless?: RegExp;
  near?: NearCondition;
  /** The file must hold this somewhere (an import, a class in use). */
  fileRequires?: RegExp;
  /** No hit when the file holds this (for example, a decode next to a verify). */
  fileForbids?: RegExp;
  /** A sink rule: the sink's argument must carry request input of this language, directly or through variables. */
  requestInput?: Language;
  /**
   * Which text the in-file data flow judges (see `flow/sink-argument.ts`). A request sink reads its
   * call's arguments unless this says otherwise; any other matcher with this set is dropped when the
   * value is constant or sanitised and raised to high when request input reaches it.
   */
  flowArgument?: SinkArgument;
  escalate?: Escalation;
  /** Whether hits inside comments count; code rules ignore comments, prompt-injection rules do not. */
  isCommentScanned?: boolean;
  /** Whether a match that starts inside a string literal counts (default yes); calls set this to false, so `"eval(x)"` in a message is not a call. */
  isStringScanned?: boolean;
}

/** A rule of the index: what it flags, how bad by default, and how it recognises it. */
export interface HintRule {
  id: string;
  category: HintCategory;
  severity: Severity;
  /** A sentence for rule tables (docs, SARIF). */
  description: string;
  /** The one-line message each hint carries. */
  message: string;
  matchers: readonly LineMatcher[];
}

/** What reports and SARIF rule tables need to know about a rule. */
export interface HintRuleInfo {
  id: string;
  category: HintCategory;
  severity: Severity;
  description: string;
  languages: readonly RuleLanguage[];
}

/** What reports and the data flow know about a category: its heading, and its sinks' kind. */
export interface CategoryInfo {
  category: HintCategory;
  /** The heading reports give the category. */
  label: string;
  /** Which sanitisers make a value safe for the category's sinks; absent when it has no data-flow sinks. */
  sinkKind?: SinkKind;
}

/** Snippets of one language that must (`flagged`) and must not (`safe`) raise a hint of the category. */
export interface RuleExample {
  language: Language;
  /** The file name the snippets are indexed as, when the language's usual one does not fit (a test, an Angular template). */
  path?: string;
  flagged: readonly string[];
  safe: readonly string[];
}

/** One category's rule file: its rules, with the examples that prove them. */
export interface CategoryRules extends CategoryInfo {
  rules: readonly HintRule[];
  examples: readonly RuleExample[];
}
