/** One secret the redactor replaced. Never holds the value. */
export interface Redaction {
  rule: string;
  /** 1-based line of the start of the value. */
  line: number;
  placeholder: string;
}
