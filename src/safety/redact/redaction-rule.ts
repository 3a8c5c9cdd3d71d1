/** The half-open range `[start, end)` of a secret value inside a text. */
export interface ValueRange {
  start: number;
  end: number;
}

/** What the report and the docs may say about a rule. */
export interface RedactionRuleInfo {
  /** Kebab-case id, shown in placeholders and reports. */
  id: string;
  description: string;
  /** Lowercase words; the rule runs only where one of them occurs. */
  keywords: readonly string[];
  /** `low` for a kind that is not itself a credential (a password hash); otherwise as its file. */
  severity?: 'low';
}

/** A rule that looks for its secret at the place where one of its keywords starts. */
export interface AnchoredRule extends RedactionRuleInfo {
  scope: 'anchored';
  findAt(text: string, at: number): ValueRange | undefined;
}

/** A rule that needs context: it scans the lines around each keyword. */
export interface WindowRule extends RedactionRuleInfo {
  scope: 'window';
  /** How many lines either side of a keyword the rule reads. */
  contextLines: number;
  findIn(text: string, start: number, end: number): ValueRange[];
}

export type RedactionRule = AnchoredRule | WindowRule;
