/** A range of the file's text: [start, end). */
export interface Span {
  start: number;
  end: number;
}

/** A switch arm: its labels (none for `default`) and its statements. */
export interface SwitchCase {
  labels: Span[];
  body: FlowNode[];
}

/**
 * A statement as the flow analysis sees it. Function bodies inside a statement are not part of it:
 * they are found separately and read only when called or when a sink sits inside them.
 */
export type FlowNode =
  | ({ kind: 'simple' } & Span)
  | ({ kind: 'block'; body: FlowNode[] } & Span)
  | ({
      kind: 'if';
      condition: Span;
      /** Ruby's `unless`: the first branch runs when the condition is false. */
      isNegated: boolean;
      then: FlowNode[];
      otherwise: FlowNode[] | null;
    } & Span)
  | ({ kind: 'loop'; head: Span; body: FlowNode[] } & Span)
  | ({ kind: 'switch'; subject: Span | null; cases: SwitchCase[]; fallsThrough: boolean } & Span)
  | ({ kind: 'try'; body: FlowNode[]; handlers: FlowNode[][]; final: FlowNode[] | null } & Span)
  | ({ kind: 'definition' } & Span);

/** A function (method, arrow function, `def`) found in the file. */
export interface FlowFunction {
  name: string | null;
  /** Where the definition starts (decorators and annotations included). */
  start: number;
  params: Span;
  body: Span;
  /** An arrow function whose body is one expression. */
  isExpressionBody: boolean;
  /** Decorators, annotations and the signature text before the body, for request-bound parameters. */
  header: Span;
}
