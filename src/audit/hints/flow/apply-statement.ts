import {
  LIST_APPEND,
  LIST_EXTEND,
  LIST_INSERT_AT,
  LIST_PREPEND,
  MAP_MERGE,
  TEXT_EDITS,
  LIST_REMOVE,
  MAP_PUT,
  TWO_KEY_PUT,
  twoKeyName,
} from '../knowledge/collections.js';
import type { FlowAnalysis, FlowRun } from './flow-analysis.js';
import { splitTopLevel } from './flow-file.js';
import type { Span } from './flow-node.js';
import { destructuredNames } from './function-parameters.js';
import {
  CLEAN,
  UNKNOWN,
  joinAll,
  joinValues,
  listValue,
  mapValue,
  type FlowValue,
} from './flow-value.js';

const DECLARATION_WORDS =
  /^(?:(?:const|let|var|val|final|static|private|public|protected|readonly|my|our|local|global|declare|export|auto|volatile|transient|internal|lateinit|dim)\s+)+/;
const RETURN = /^return\b\s*/;
// Loop heads that bind names: `x of xs`, `T x : xs`, `x in xs`, `xs as $k => $v`, `k, v := range xs`, `xs.each do |x|`.
const FOR_OF =
  /^\s*(?:(?:const|let|var|final)\s+)?(?:[\w$.<>[\]?]+\s+)?(\{[^}]*\}|\[[^\]]*\]|[$\w]+(?:\s*,\s*[$\w]+)*)\s+(?:of|in|:)\s+([\s\S]+)$/;
const PHP_FOREACH = /^\s*([\s\S]+?)\s+as\s+(?:(\$\w+)\s*=>\s*)?(\$\w+|\[[^\]]*\])\s*$/;
const GO_RANGE = /^\s*(?:([\w]+)\s*,\s*)?([\w]+)\s*:?=\s*range\s+([\s\S]+)$/;
const RUBY_EACH =
  /^([\s\S]*?)\.\s*(?:each\w*|map|flat_map|select|filter|reject|collect|each_pair|each_line|times|find|detect)\s*(?:\([^)]*\))?\s*(?:do|\{)\s*\|([^|]*)\|/;
const WITH_AS = /^([\s\S]+?)\s+as\s+([\w]+)\s*$/;

/** Applies one simple statement (or a loop head) to a run: assignments, container updates, returns. */
export function applyStatement(
  analysis: FlowAnalysis,
  span: Span,
  run: FlowRun,
  isLoopHead = false,
): void {
  const masked = analysis.file.masked;
  const start = masked.skipSpace(span.start, span.end);
  const text = masked.slice(start, span.end);
  if (isLoopHead) {
    bindLoop(analysis, { start, end: span.end }, run);
    return;
  }
  const returned = RETURN.exec(text);
  if (returned !== null) {
    if (run.returns !== null) {
      run.returns.push(
        analysis.evaluator.evaluate(
          { start: start + returned[0].length, end: span.end },
          scopeOf(analysis, run),
        ),
      );
    }
    return;
  }
  const assignment = findAssignment(analysis, { start, end: span.end });
  if (assignment !== null) {
    applyAssignment(analysis, assignment, run);
    return;
  }
  // Python's `with open(x) as f` (its head is a statement of its own).
  const withAs = / as /.test(text) && text.length < 300 ? WITH_AS.exec(text) : null;
  if (withAs?.[1] !== undefined && withAs[2] !== undefined) {
    const value = analysis.evaluator.evaluate(
      { start, end: start + withAs[1].length },
      scopeOf(analysis, run),
    );
    run.state.set(withAs[2], value);
    return;
  }
  applyMutation(analysis, { start, end: span.end }, run);
}

function scopeOf(analysis: FlowAnalysis, run: FlowRun): ReturnType<FlowAnalysis['scopeOf']> {
  return analysis.scopeOf(run.state);
}

interface Assignment {
  target: Span;
  operator: string;
  value: Span;
}

// The first assignment operator outside brackets: `=`, `:=`, `+=`, `.=`, `||=`, `??=`, `<<=`.
function findAssignment(analysis: FlowAnalysis, span: Span): Assignment | null {
  const masked = analysis.file.masked;
  const text = masked.text;
  for (let at = span.start; at < span.end; at++) {
    const code = text[at];
    if (code === '(' || code === '[' || code === '{') {
      // A destructuring target (`const { a } = ...`, `[a, b] = ...`) is read as a whole.
      at = masked.closeOf(at, span.end);
      continue;
    }
    if (code !== '=') continue;
    const next = text[at + 1];
    const previous = text[at - 1] ?? '';
    if (next === '=' || next === '>' || next === '~') {
      at++;
      continue;
    }
    if (
      previous === '=' ||
      previous === '!' ||
      (previous === '<' && text[at - 2] !== '<') ||
      (previous === '>' && text[at - 2] !== '>')
    )
      continue;
    let operatorStart = at;
    while (operatorStart > span.start && /[+\-*/%.|&^?:<>]/.test(text[operatorStart - 1] ?? ''))
      operatorStart--;
    // `a ?: b` and the `?` of a ternary are not operators here; `=` after a type annotation is.
    const operator = text.slice(operatorStart, at + 1);
    if (/^[?:]$/.test(operator.slice(0, -1)) && operator !== ':=' && operator !== '?=') continue;
    return {
      target: { start: span.start, end: operatorStart },
      operator,
      value: { start: at + 1, end: span.end },
    };
  }
  return null;
}

function applyAssignment(analysis: FlowAnalysis, assignment: Assignment, run: FlowRun): void {
  const masked = analysis.file.masked;
  let value = analysis.evaluator.evaluate(assignment.value, scopeOf(analysis, run));
  let target = masked
    .slice(assignment.target.start, assignment.target.end)
    .trim()
    .replace(DECLARATION_WORDS, '');
  const isCompound = assignment.operator !== '=' && assignment.operator !== ':=';
  if (/^[{[]/.test(target) || /^list\s*\(/.test(target)) {
    const inside = target.replace(/^list\s*\(|^[{[]|[}\])]\s*(?::[\s\S]*)?$/g, '');
    const names = target.startsWith('{')
      ? destructuredNames(inside)
      : inside.split(',').map((n) => n.trim().replace(/^\.\.\./, ''));
    names.forEach((name, index) => {
      if (!/^[$@\w]+$/.test(name)) return;
      const entry = value.entries?.get(name) ?? value.items?.[index];
      run.state.set(name, entry ?? withoutShape(value));
    });
    return;
  }
  // `name: Type = ...` (TypeScript, Python annotations) and `Type name = ...` (Java, C#, Go `var`).
  target = target.replace(/^([$@\w.]+)\s*:(?!:)[\s\S]*$/, '$1');
  if (/,/.test(stripGroups(target)) && !/[<(]/.test(target)) {
    for (const name of target.split(',')) {
      const trimmed = name.trim().replace(/^\*/, '');
      if (/^[$@\w.]+$/.test(trimmed)) run.state.set(trimmed, withoutShape(value));
    }
    return;
  }
  const element = /^([$@]?[\w$]+(?:(?:\.|->)[\w$]+)*)\s*\[([^\]]*)\]\s*$/.exec(target);
  if (element?.[1] !== undefined) {
    const keyStart = masked.text.indexOf('[', assignment.target.start) + 1;
    setElement(
      analysis,
      element[1].replace(/->/g, '.'),
      { start: keyStart, end: keyStart + (element[2] ?? '').length },
      value,
      run,
    );
    return;
  }
  const name = /([$@]?[\w$]+(?:(?:\.|->|::)[\w$]+)*)\s*$/.exec(target)?.[1]?.replace(/->|::/g, '.');
  if (name === undefined) return;
  if (isCompound) value = joinValues(run.state.get(name) ?? UNKNOWN, value);
  run.state.set(name, value);
}

// `map[key] = value`, `list[0] = value`, `$list[] = value`.
function setElement(
  analysis: FlowAnalysis,
  name: string,
  keySpan: Span,
  value: FlowValue,
  run: FlowRun,
): void {
  const container = run.state.get(name);
  if (container === undefined) return;
  const key = analysis.evaluator.evaluate(keySpan, scopeOf(analysis, run)).constant;
  if (container.entries !== undefined) {
    const entries = new Map(container.entries);
    entries.set(key === undefined ? '*' : String(key), value);
    run.state.set(name, mapValue(entries));
  } else if (container.items !== undefined) {
    const items = [...container.items];
    if (typeof key === 'number' && key < items.length) items[key] = value;
    else items.push(value);
    run.state.set(name, listValue(items));
  } else {
    run.state.set(name, joinValues(container, value));
  }
}

// `list.add(x)`, `map.put(k, v)`, `sb.append(a).append(b)`, `list.remove(0)`, `s << x`.
function applyMutation(analysis: FlowAnalysis, span: Span, run: FlowRun): void {
  const masked = analysis.file.masked;
  const text = masked.slice(span.start, span.end);
  const shift = /^([$@]?[\w$]+)\s*<<\s*/.exec(text);
  if (shift?.[1] !== undefined) {
    const current = run.state.get(shift[1]);
    if (current === undefined) return;
    const value = analysis.evaluator.evaluate(
      { start: span.start + shift[0].length, end: span.end },
      scopeOf(analysis, run),
    );
    run.state.set(
      shift[1],
      current.items !== undefined
        ? listValue([...current.items, value])
        : joinValues(current, value),
    );
    return;
  }
  const receiver = /^([$@]?[\w$]+(?:(?:\.|->)[\w$]+)*?)\s*(?:\?\.|\.|->)\s*(?=[\w$]+\s*\()/.exec(
    text,
  );
  const phpPush = /^array_push\s*\(\s*(\$\w+)\s*,/.exec(text);
  const name = (receiver?.[1] ?? phpPush?.[1])?.replace(/->/g, '.');
  if (name === undefined) return;
  let current = run.state.get(name);
  if (current === undefined) return;
  let at = span.start + (receiver?.[0].length ?? 0);
  if (phpPush !== null) {
    const args = splitTopLevel(masked, {
      start: span.start + phpPush[0].length,
      end: masked.closeOf(span.start + text.indexOf('(')),
    });
    const values = args.map((arg) => analysis.evaluator.evaluate(arg, scopeOf(analysis, run)));
    run.state.set(
      name,
      current.items !== undefined
        ? listValue([...current.items, ...values])
        : joinValues(current, joinAll(values)),
    );
    return;
  }
  // Each `.method(args)` link in turn: `sb.append(a).append(b)`.
  for (;;) {
    const link = /^([\w$]+)\s*\(/.exec(masked.slice(at, Math.min(span.end, at + 80)));
    if (link?.[1] === undefined) break;
    const open = at + link[0].length - 1;
    const close = masked.closeOf(open, span.end);
    const args = splitTopLevel(masked, { start: open + 1, end: close }).map((arg) => ({
      span: arg,
      value: analysis.evaluator.evaluate(arg, scopeOf(analysis, run)),
    }));
    current = mutate(current, link[1], args);
    const next = /^\s*(?:\?\.|\.)\s*/.exec(masked.slice(close + 1, Math.min(span.end, close + 6)));
    if (next === null) break;
    at = close + 1 + next[0].length;
  }
  run.state.set(name, current);
}

function mutate(
  current: FlowValue,
  method: string,
  args: readonly { value: FlowValue }[],
): FlowValue {
  const values = args.map((arg) => arg.value);
  if (current.items !== undefined) {
    const items = [...current.items];
    if (
      LIST_INSERT_AT.test(method) &&
      values.length === 2 &&
      typeof values[0]?.constant === 'number'
    ) {
      items.splice(values[0].constant, 0, values[1] ?? CLEAN);
      return listValue(items);
    }
    if (LIST_PREPEND.test(method)) return listValue([...values, ...items]);
    if (LIST_EXTEND.test(method))
      return listValue([...items, ...values.flatMap((v) => v.items ?? [v])]);
    if (LIST_APPEND.test(method)) return listValue([...items, ...values]);
    if (LIST_REMOVE.test(method)) {
      const index = values[0]?.constant;
      if (method === 'clear') return listValue([]);
      if (method === 'pop' || method === 'removeLast')
        items.splice(typeof index === 'number' ? index : items.length - 1, 1);
      else if (typeof index === 'number') items.splice(index, 1);
      else if (typeof index === 'string') {
        const found = items.findIndex((item) => item.constant === index);
        if (found !== -1) items.splice(found, 1);
      } else items.shift();
      return listValue(items);
    }
    return current;
  }
  if (current.entries !== undefined) {
    const entries = new Map(current.entries);
    const [first, second] = [values[0]?.constant, values[1]?.constant];
    if (TWO_KEY_PUT.test(method) && values.length === 3) {
      const keyText = first === undefined || second === undefined ? '*' : twoKeyName(first, second);
      entries.set(keyText, values[2] ?? CLEAN);
      return mapValue(entries);
    }
    if (MAP_PUT.test(method) && values.length >= 2) {
      const key = values[0]?.constant;
      const keyText = key === undefined ? '*' : String(key);
      const value = values[1] ?? CLEAN;
      if (method === 'putIfAbsent' || method === 'setdefault') {
        entries.set(keyText, entries.has(keyText) ? (entries.get(keyText) ?? CLEAN) : value);
      } else
        entries.set(
          keyText,
          key === undefined ? joinValues(entries.get('*') ?? CLEAN, value) : value,
        );
      return mapValue(entries);
    }
    if (MAP_MERGE.test(method) && values[0]?.entries !== undefined) {
      for (const [key, value] of values[0].entries) entries.set(key, value);
      return mapValue(entries);
    }
    if (LIST_REMOVE.test(method) && values[0]?.constant !== undefined) {
      entries.delete(String(values[0].constant));
      return mapValue(entries);
    }
    return current;
  }
  if (LIST_APPEND.test(method) || MAP_PUT.test(method) || TEXT_EDITS.test(method)) {
    return joinValues(current, joinAll(values));
  }
  return current;
}

function bindLoop(analysis: FlowAnalysis, head: Span, run: FlowRun): void {
  const masked = analysis.file.masked;
  const text = masked.slice(head.start, head.end);
  const scope = scopeOf(analysis, run);
  const evaluateFrom = (from: number, to: number): FlowValue =>
    analysis.evaluator.evaluate({ start: head.start + from, end: head.start + to }, scope);
  const bind = (names: string[], iterable: FlowValue): void => {
    const element = elementOf(iterable);
    for (const name of names) if (/^[$@\w]+$/.test(name)) run.state.set(name, element);
  };
  const each = RUBY_EACH.exec(text);
  if (each?.[1] !== undefined && each[2] !== undefined) {
    bind(
      each[2].split(',').map((n) => n.trim()),
      evaluateFrom(0, each[1].length),
    );
    return;
  }
  const range = GO_RANGE.exec(text);
  if (range?.[2] !== undefined && range[3] !== undefined) {
    const iterable = evaluateFrom(text.length - range[3].length, text.length);
    bind([range[2]], iterable);
    if (range[1] !== undefined) run.state.set(range[1], withoutShape(iterable));
    return;
  }
  const foreach = /\bas\b/.test(text) ? PHP_FOREACH.exec(text) : null;
  if (foreach?.[1] !== undefined && foreach[3] !== undefined) {
    const iterable = evaluateFrom(0, foreach[1].length);
    bind([foreach[3]], iterable);
    if (foreach[2] !== undefined) run.state.set(foreach[2], withoutShape(iterable));
    return;
  }
  if (/;/.test(text)) {
    // `for (init; condition; update)`: the initialiser is a statement.
    const init = text.indexOf(';');
    applyStatement(analysis, { start: head.start, end: head.start + init }, run);
    return;
  }
  const forOf = FOR_OF.exec(text);
  if (forOf?.[1] !== undefined && forOf[2] !== undefined) {
    const names = forOf[1].startsWith('{')
      ? destructuredNames(forOf[1].slice(1, -1))
      : forOf[1]
          .replace(/^\[|\]$/g, '')
          .split(',')
          .map((n) => n.trim());
    bind(names, evaluateFrom(text.length - forOf[2].length, text.length));
    return;
  }
  // `while ((entry = next()) != null)`, `while (line := f.readline())`: the assignment inside.
  const inner = /\(\s*([$\w]+)\s*:?=(?!=)\s*/.exec(text);
  if (inner?.[1] !== undefined) {
    const valueStart = head.start + inner.index + inner[0].length;
    const close = masked.closeOf(head.start + inner.index, head.end);
    run.state.set(inner[1], analysis.evaluator.evaluate({ start: valueStart, end: close }, scope));
  }
}

function elementOf(iterable: FlowValue): FlowValue {
  if (iterable.items !== undefined) return joinAll(iterable.items);
  if (iterable.entries !== undefined) return joinAll([...iterable.entries.values()]);
  return withoutShape(iterable);
}

function withoutShape(value: FlowValue): FlowValue {
  if (value.items === undefined && value.entries === undefined) return value;
  const { items: _items, entries: _entries, ...rest } = value;
  return rest;
}

function stripGroups(text: string): string {
  let depth = 0;
  let out = '';
  for (const char of text) {
    if ('([{<'.includes(char)) depth++;
    else if (')]}>'.includes(char)) depth = Math.max(0, depth - 1);
    else if (depth === 0) out += char;
  }
  return out;
}
