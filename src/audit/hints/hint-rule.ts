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
  /** The lines before stop at the start of the function the hit sits in (another route's reads do not count). */
  isWithinFunction?: true;
}

/** When a hit is worse than the rule's default: the line, or lines near it, show the risky form. */
export interface Escalation {
  severity: Severity;
  onLine?: RegExp;
  near?: { pattern: RegExp; before: number; after: number };
}

/**
 * What the file must make the variable a pattern's `receiver` group names from (`R = new Random()`
 * for `R.nextInt(`), or declare it as: type first (`Part part` for `part.write(`) or name first
 * (Go's `w http.ResponseWriter` for `t.Execute(w, …)`); read on code, not comments.
 */
export interface ReceiverCondition {
  assignedFrom?: RegExp;
  declaredAs?: RegExp;
  typedAs?: RegExp;
}

/** What every matcher has: where it applies, the keywords that send a line to it, its pattern and filters. */
interface MatcherShape {
  languages: readonly RuleLanguage[];
  /**
   * Lowercase literals; a line is tested only when one occurs in it, matched case-insensitively
   * and, when it begins with a letter, digit or underscore, only at the start of a word.
   */
  keywords: readonly string[];
  /** Whether the keywords are found inside words too (`testingPassword`, `DB_PASSWORD`). */
  isKeywordInsideWords?: boolean;
  /** Tested on the line, or on a window around the keyword when the line is very long. Never `g` or `y`. */
  pattern: RegExp;
  /** A line (or its wrapped statement) that also matches this shows a safe form: no hit. */
  unless?: RegExp;
  near?: NearCondition;
  /** The file must hold this somewhere (an import, a class in use). */
  fileRequires?: RegExp;
  /** No hit when the file holds this (for example, a decode next to a verify). */
  fileForbids?: RegExp;
  /** Whether a match that starts inside a string literal counts (default yes); calls say no, so `"eval(x)"` in a message is not a call. */
  isStringScanned?: false;
  /** When the pattern's `receiver` group matched, what that variable must be: a method is judged by its object. */
  receiver?: ReceiverCondition;
  /** Only inside a function a web framework routes requests to (`knowledge/responses.ts`), where what it returns is the response. */
  isInRouteHandlerOnly?: true;
  /** Only on the line that closes such a function (Ruby's `end`), whose last statement is its value. */
  isRouteHandlerEndOnly?: true;
  /**
   * No hit when the match is stored in a variable the rest of its function calls only these methods
   * on, with no argument (`File f = new File(name);` then only `f.getName()`: nothing is opened).
   */
  unlessHeldOnlyFor?: readonly string[];
}

/** Code that is risky as written (a weak hash, verification turned off): no data flow judges it. */
export interface CodeMatcher extends MatcherShape {
  kind: 'code';
  escalate?: Escalation;
}

/**
 * A sink whose argument the in-file data flow judges (`flow/sink-argument.ts` says which text): the
 * hint is dropped when the value is constant or sanitised and raised to high when request input reaches it.
 */
export interface FlowSinkMatcher extends MatcherShape {
  kind: 'flow-sink';
  argument: SinkArgument;
  escalate?: Escalation;
}

/**
 * A sink that only matters when request input of its language reaches it, directly or through
 * variables (weaker through a variable); the flow reads its call's arguments unless `argument` says otherwise.
 */
export interface RequestSinkMatcher extends MatcherShape {
  kind: 'request-sink';
  input: Language;
  argument?: SinkArgument;
}

/** Words, not code: hits inside comments and strings count (prompt-injection phrases, a commented-out check). */
export interface TextMatcher extends MatcherShape {
  kind: 'text';
}

/** One way a rule recognises its pattern in some languages: a typed shape per kind. */
export type LineMatcher = CodeMatcher | FlowSinkMatcher | RequestSinkMatcher | TextMatcher;

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
