import type { Language } from '../detect-languages.js';
import { ExpressionEvaluator, type FlowScope } from './evaluate-expression.js';
import { FlowFile, splitTopLevel, type CodeView } from './flow-file.js';
import type { FlowFunction, FlowNode, Span } from './flow-node.js';
import { CLEAN, DIRECT_INPUT, UNKNOWN, joinAll, joinValues, type FlowValue } from './flow-value.js';
import { listParameters } from './function-parameters.js';
import { ABRUPT_END } from '../knowledge/guards.js';
import { REQUEST_OBJECTS } from '../knowledge/sources.js';
import { applyStatement } from './apply-statement.js';
import { refinementsWhen } from './read-condition.js';
import { sanitised } from './flow-value.js';

/** Variables and what they hold at one point of a function. */
export type FlowState = Map<string, FlowValue>;

/** One path through statements: its variables, and (inside a summarised function) the values it returns. */
export interface FlowRun {
  state: FlowState;
  returns: FlowValue[] | null;
}

// Statements and expressions interpreted per file before the analysis gives up (its sinks then fall
// back to the look-back): far more than an application file needs, far less than a bundle offers.
const MAX_STEPS_PER_FILE = 4_000;
// Top-level statements read for module constants.
const MAX_MODULE_STATEMENTS = 400;
// How deep helper calls and caller look-ups nest.
const MAX_CALL_DEPTH = 4;
// Call sites read to learn what a helper's parameters receive.
const MAX_CALL_SITES = 4;

class BudgetExhausted extends Error {}

/** In-file data flow: what an expression holds at a point, following assignments, branches and helpers. */
export class FlowAnalysis {
  readonly file: FlowFile;
  readonly evaluator: ExpressionEvaluator;
  #steps = 0;
  get stepsUsed(): number {
    return this.#steps;
  }
  #depth = 0;
  #moduleState: FlowState | null = null;
  #isBuildingModule = false;
  readonly #entryStates = new Map<FlowFunction, FlowState>();
  readonly #summaries = new Map<string, FlowValue>();
  readonly #active = new Set<FlowFunction>();
  readonly #prefixes = new Map<FlowFunction | null, { index: number; state: FlowState }>();

  private constructor(file: FlowFile) {
    this.file = file;
    this.evaluator = new ExpressionEvaluator(file, () => this.step());
  }

  static open(
    text: string,
    languages: readonly Language[],
    view?: CodeView | null,
  ): FlowAnalysis | null {
    const file = FlowFile.open(text, languages, view);
    return file === null ? null : new FlowAnalysis(file);
  }

  /** What expressions hold (joined) just before the statement around `offset`; undefined when the analysis gave up. */
  valueAt(offset: number, spans: readonly Span[]): FlowValue | undefined {
    if (this.#steps > MAX_STEPS_PER_FILE) return undefined;
    try {
      const scope = this.scopeOf(this.stateBefore(offset));
      return joinAll(spans.map((span) => this.evaluator.evaluate(span, scope)));
    } catch (error) {
      // A hostile file may nest deeper than the stack allows: the sink falls back to the look-back.
      if (error instanceof BudgetExhausted || error instanceof RangeError) {
        this.#steps = MAX_STEPS_PER_FILE + 1;
        return undefined;
      }
      throw error;
    }
  }

  scopeOf(state: FlowState): FlowScope {
    return {
      lookup: (name) => state.get(name),
      call: (name, args, isMethod) => this.callFunction(name, args, isMethod),
      isPassThrough: (name, count) => {
        const fn = this.file.functionNamed(name, count);
        return (
          fn !== undefined && !/[\w$]\s*\(/.test(this.file.masked.slice(fn.body.start, fn.body.end))
        );
      },
    };
  }

  /** Counts one interpreted statement against the file's budget. */
  step(): void {
    this.#steps++;
    if (this.#steps > MAX_STEPS_PER_FILE) throw new BudgetExhausted();
  }

  // Sinks come in file order, so the state after a function's earlier statements is kept and the
  // next question about that function starts from it.
  private stateBefore(offset: number): FlowState {
    const fn = this.file.functionAt(offset);
    const nodes = this.file.statementsOf(fn);
    let index = nodes.findIndex((node) => offset < node.end);
    if (index === -1) index = nodes.length;
    const prefix = this.#prefixes.get(fn);
    let from = 0;
    let state: FlowState;
    if (prefix !== undefined && prefix.index <= index) {
      state = new Map(prefix.state);
      from = prefix.index;
    } else {
      state = fn === null ? new Map(this.moduleState()) : this.entryState(fn);
    }
    const run: FlowRun = { state, returns: null };
    for (let at = from; at < index; at++) {
      const node = nodes[at];
      if (node !== undefined) this.apply(node, run);
    }
    if (prefix === undefined || prefix.index <= index) {
      this.#prefixes.set(fn, { index, state: new Map(run.state) });
    }
    const holder = nodes[index];
    if (holder !== undefined && holder.start <= offset) this.descend(holder, run, offset);
    return run.state;
  }

  private moduleState(): FlowState {
    if (this.#moduleState !== null) return this.#moduleState;
    if (this.#isBuildingModule) return new Map();
    this.#isBuildingModule = true;
    const run: FlowRun = { state: new Map(), returns: null };
    // Module constants come first in a file; a bundle's thousands of top-level statements do not all matter.
    for (const node of this.file.statementsOf(null).slice(0, MAX_MODULE_STATEMENTS))
      this.apply(node, run);
    this.#isBuildingModule = false;
    this.#moduleState = run.state;
    return run.state;
  }

  // Module constants, the enclosing function's variables (closures), then the parameters.
  private entryState(fn: FlowFunction): FlowState {
    const cached = this.#entryStates.get(fn);
    if (cached !== undefined) return new Map(cached);
    const state =
      this.file.functionAt(fn.start) === null || this.#depth > MAX_CALL_DEPTH
        ? new Map(this.moduleState())
        : this.nested(() => this.stateBefore(fn.start));
    const parameters = listParameters(this.file, fn);
    const fromCallers = this.callerValues(fn, parameters.filter((p) => !p.isReceiver).length);
    let position = 0;
    for (const parameter of parameters) {
      if (parameter.isReceiver) continue;
      const passed = fromCallers[position] ?? UNKNOWN;
      for (const name of parameter.names) {
        if (REQUEST_OBJECTS[this.file.language.language]?.test(name) === true) {
          state.delete(name);
          continue;
        }
        state.set(
          name,
          parameter.requestNames.includes(name) ? { ...DIRECT_INPUT, via: name } : passed,
        );
      }
      position++;
    }
    this.#entryStates.set(fn, state);
    return new Map(state);
  }

  // What a named function's call sites in this file pass, per argument position.
  private callerValues(fn: FlowFunction, count: number): FlowValue[] {
    if (fn.name === null || this.#depth > MAX_CALL_DEPTH - 2 || this.#active.has(fn)) return [];
    const masked = this.file.masked;
    const pattern = new RegExp(`(?<![\\w$])${fn.name.replace(/[$]/g, '\\$')}\\s*\\(`, 'g');
    const sites: number[] = [];
    for (let match = pattern.exec(masked.text); match !== null; match = pattern.exec(masked.text)) {
      const open = match.index + match[0].length - 1;
      if (open >= fn.header.start && open <= fn.body.end) continue;
      const before = masked.slice(Math.max(0, match.index - 12), match.index);
      if (/\b(?:function|def|func)\s*$/.test(before)) continue;
      // A helper called from many places is a utility: what one caller passes says little.
      if (sites.push(match.index) > MAX_CALL_SITES) return [];
    }
    const values: (FlowValue | undefined)[] = [];
    this.#active.add(fn);
    try {
      for (const site of sites) {
        const open = masked.text.indexOf('(', site);
        const args = splitTopLevel(masked, { start: open + 1, end: masked.closeOf(open) });
        const state = this.nested(() => this.stateBefore(site));
        const scope = this.scopeOf(state);
        args.slice(0, count).forEach((arg, index) => {
          const value = this.evaluator.evaluate(arg, scope);
          const previous = values[index];
          values[index] = previous === undefined ? value : joinValues(previous, value);
        });
      }
    } finally {
      this.#active.delete(fn);
    }
    return values.map((value) => value ?? UNKNOWN);
  }

  private nested<T>(work: () => T): T {
    this.#depth++;
    try {
      return work();
    } finally {
      this.#depth--;
    }
  }

  /** What a same-file function returns for these arguments (memoised by their taint). */
  callFunction(name: string, args: readonly FlowValue[], isMethod: boolean): FlowValue | undefined {
    if (this.#isBuildingModule) return undefined;
    const fn = this.file.functionNamed(name, args.length);
    if (fn === undefined) return undefined;
    if (this.#active.has(fn) || this.#depth > MAX_CALL_DEPTH)
      return args.length === 0 ? UNKNOWN : joinAll(args);
    const key = `${fn.body.start}:${args.map(signatureOf).join(',')}`;
    const cached = this.#summaries.get(key);
    if (cached !== undefined) return cached;
    this.#active.add(fn);
    try {
      const summary = this.nested(() => this.summarise(fn, args, isMethod));
      this.#summaries.set(key, summary);
      return summary;
    } finally {
      this.#active.delete(fn);
    }
  }

  private summarise(fn: FlowFunction, args: readonly FlowValue[], isMethod: boolean): FlowValue {
    const state = new Map(this.moduleState());
    let position = 0;
    for (const parameter of listParameters(this.file, fn)) {
      if (parameter.isReceiver && isMethod) continue;
      const value = args[position] ?? UNKNOWN;
      for (const name of parameter.names) state.set(name, value);
      position++;
    }
    const run: FlowRun = { state, returns: [] };
    if (fn.isExpressionBody) return this.evaluator.evaluate(fn.body, this.scopeOf(state));
    const nodes = this.file.statementsOf(fn);
    this.applyAll(nodes, run);
    const returns = run.returns ?? [];
    if (returns.length > 0) return returns.length === 1 ? (returns[0] ?? CLEAN) : joinAll(returns);
    const last = nodes[nodes.length - 1];
    // Ruby returns its last expression.
    if (this.file.language.language === 'ruby' && last?.kind === 'simple') {
      return this.evaluator.evaluate(last, this.scopeOf(run.state));
    }
    return CLEAN;
  }

  applyAll(nodes: readonly FlowNode[], run: FlowRun): void {
    for (const node of nodes) this.apply(node, run);
  }

  // Applies the statements before `offset`, descending into the one that holds it.
  private applyUntil(nodes: readonly FlowNode[], run: FlowRun, offset: number): void {
    for (const node of nodes) {
      if (node.start > offset) return;
      if (offset >= node.end) {
        this.apply(node, run);
        continue;
      }
      this.descend(node, run, offset);
      return;
    }
  }

  private descend(node: FlowNode, run: FlowRun, offset: number): void {
    switch (node.kind) {
      case 'simple':
      case 'definition':
        return;
      case 'block':
        return this.applyUntil(node.body, run, offset);
      case 'if': {
        // A statement modifier (`sink(q) if ok?(q)`) is written before its condition, which still decides it.
        const inThen = node.then.some((n) => n.start <= offset && offset < n.end);
        if (!inThen && offset < node.condition.end) return;
        const isThen = inThen || node.otherwise === null;
        this.refine(run, node.condition, isThen !== node.isNegated);
        return this.applyUntil(isThen ? node.then : (node.otherwise ?? []), run, offset);
      }
      case 'loop':
        if (offset < node.head.end) return;
        this.bindLoopHead(node.head, run);
        return this.applyUntil(node.body, run, offset);
      case 'switch': {
        const arm = node.cases.find((c) => c.body.some((n) => n.start <= offset && offset < n.end));
        if (arm !== undefined) this.applyUntil(arm.body, run, offset);
        return;
      }
      case 'try': {
        if (node.body.some((n) => n.start <= offset && offset < n.end))
          return this.applyUntil(node.body, run, offset);
        this.applyAll(node.body, run);
        const handler = node.handlers.find((h) =>
          h.some((n) => n.start <= offset && offset < n.end),
        );
        return this.applyUntil(handler ?? node.final ?? [], run, offset);
      }
    }
  }

  private apply(node: FlowNode, run: FlowRun): void {
    switch (node.kind) {
      case 'simple':
        this.step();
        applyStatement(this, node, run);
        return;
      case 'definition':
        return;
      case 'block':
        return this.applyAll(node.body, run);
      case 'if':
        return this.applyIf(node, run);
      case 'loop': {
        const body: FlowRun = { state: new Map(run.state), returns: run.returns };
        this.bindLoopHead(node.head, body);
        this.applyAll(node.body, body);
        run.state = joinStates(run.state, body.state);
        return;
      }
      case 'switch':
        return this.applySwitch(node, run);
      case 'try': {
        this.applyAll(node.body, run);
        const states = node.handlers.map((handler) => {
          const branch: FlowRun = { state: new Map(run.state), returns: run.returns };
          this.applyAll(handler, branch);
          return branch.state;
        });
        for (const state of states) run.state = joinStates(run.state, state);
        if (node.final !== null) this.applyAll(node.final, run);
        return;
      }
    }
  }

  private applyIf(node: Extract<FlowNode, { kind: 'if' }>, run: FlowRun): void {
    const folded = this.evaluator.foldCondition(node.condition, this.scopeOf(run.state));
    if (folded !== undefined) {
      const takesThen = Boolean(folded) !== node.isNegated;
      this.applyAll(takesThen ? node.then : (node.otherwise ?? []), run);
      return;
    }
    const then: FlowRun = { state: new Map(run.state), returns: run.returns };
    this.refine(then, node.condition, !node.isNegated);
    this.applyAll(node.then, then);
    const otherwise: FlowRun = { state: new Map(run.state), returns: run.returns };
    this.refine(otherwise, node.condition, node.isNegated);
    if (node.otherwise !== null) this.applyAll(node.otherwise, otherwise);
    // A guard clause (`if (!ALLOWED.has(x)) return ...`): only the other path continues.
    if (this.endsAbruptly(node.then)) run.state = otherwise.state;
    else if (node.otherwise !== null && this.endsAbruptly(node.otherwise)) run.state = then.state;
    else run.state = joinStates(then.state, otherwise.state);
  }

  private applySwitch(node: Extract<FlowNode, { kind: 'switch' }>, run: FlowRun): void {
    const scope = this.scopeOf(run.state);
    const subject =
      node.subject === null ? undefined : this.evaluator.evaluate(node.subject, scope).constant;
    const starts: number[] = [];
    if (subject !== undefined) {
      const matching = node.cases.findIndex((arm) =>
        arm.labels.some((label) => this.evaluator.foldCondition(label, scope) === subject),
      );
      const fallback = node.cases.findIndex((arm) => arm.labels.length === 0);
      const chosen = matching !== -1 ? matching : fallback;
      if (chosen !== -1) starts.push(chosen);
    } else {
      node.cases.forEach((_, index) => starts.push(index));
    }
    const hasDefault = node.cases.some((arm) => arm.labels.length === 0);
    const states: FlowState[] =
      subject !== undefined && starts.length > 0 ? [] : hasDefault ? [] : [run.state];
    for (const start of starts) {
      const branch: FlowRun = { state: new Map(run.state), returns: run.returns };
      for (let index = start; index < node.cases.length; index++) {
        const body = node.cases[index]?.body ?? [];
        const breakAt = body.findIndex(
          (n) => n.kind === 'simple' && /^break\b/.test(this.file.masked.slice(n.start, n.end)),
        );
        this.applyAll(breakAt === -1 ? body : body.slice(0, breakAt), branch);
        if (!node.fallsThrough || breakAt !== -1 || this.endsAbruptly(body)) break;
      }
      states.push(branch.state);
    }
    if (states.length > 0) run.state = states.reduce(joinStates);
  }

  private endsAbruptly(nodes: readonly FlowNode[]): boolean {
    const last = nodes[nodes.length - 1];
    if (last === undefined) return false;
    if (last.kind === 'simple')
      return ABRUPT_END.test(this.file.masked.slice(last.start, last.end).trim());
    if (last.kind === 'if')
      return (
        last.otherwise !== null && this.endsAbruptly(last.then) && this.endsAbruptly(last.otherwise)
      );
    if (last.kind === 'block') return this.endsAbruptly(last.body);
    return false;
  }

  // What a condition proves about names on the path where it has this truth value.
  private refine(run: FlowRun, condition: Span, holds: boolean): void {
    const masked = this.file.masked.slice(condition.start, condition.end);
    const original = this.file.original.slice(condition.start, condition.end);
    for (const refinement of refinementsWhen(masked, original, holds)) {
      const value = run.state.get(refinement.name);
      if (value !== undefined) run.state.set(refinement.name, sanitised(value, refinement.kinds));
    }
  }

  private bindLoopHead(head: Span, run: FlowRun): void {
    this.step();
    applyStatement(this, head, run, true);
  }
}

/** The variables after either of two paths. */
export function joinStates(a: FlowState, b: FlowState): FlowState {
  const joined: FlowState = new Map(a);
  for (const [name, value] of b) {
    const other = a.get(name);
    joined.set(name, other === undefined ? joinValues(value, UNKNOWN) : joinValues(other, value));
  }
  for (const [name, value] of a) if (!b.has(name)) joined.set(name, joinValues(value, UNKNOWN));
  return joined;
}

function signatureOf(value: FlowValue): string {
  return `${value.taint}/${value.cleanFor}/${String(value.constant ?? '')}/${value.wrapsRequest === true ? 'w' : ''}${value.isEscapingTemplate === true ? 'e' : ''}`;
}
