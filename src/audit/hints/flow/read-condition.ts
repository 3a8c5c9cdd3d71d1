import {
  CONFINEMENT,
  EQUALITY,
  HOST_CHECK,
  MEMBERSHIP,
  QUOTE_TEST,
  SEPARATOR_TEST,
  TYPE_CHECK,
} from '../knowledge/guards.js';
import { SINK_KINDS, ALL_KINDS } from './flow-value.js';

/** A name a condition proves safe: for every sink kind (allow-listed) or for file paths only (confined). */
export interface Refinement {
  name: string;
  kinds: number;
}

/** The value a condition tests for membership, and whether the condition holds when it is listed. */
export function allowListedName(
  condition: string,
): { name: string; isTrueWhenListed: boolean } | null {
  let text = condition.trim();
  let isTrueWhenListed = true;
  const negated = /^(?:!|not\s+)\s*(.*)$/s.exec(text);
  if (negated?.[1] !== undefined) {
    text = stripParens(negated[1]);
    isTrueWhenListed = false;
  }
  const notIn = /^([\w$.[\]'"]+)\s+not\s+in\s+[\w$.[\]'"]+$/.exec(text);
  if (notIn?.[1] !== undefined)
    return { name: withoutDefault(notIn[1]), isTrueWhenListed: !isTrueWhenListed };
  for (const pattern of [...MEMBERSHIP, ...EQUALITY]) {
    const match = pattern.exec(stripParens(text));
    // The tested value may hold calls (`list.includes(url.split('.').pop())`), but its parentheses
    // must pair up: in `a.includes(x) || f(y)` the text in the last pair is not one value.
    if (match?.[1] !== undefined && isBalanced(match[1]))
      return { name: withoutDefault(match[1]), isTrueWhenListed };
  }
  return null;
}

/**
 * What is known about names where a condition has this truth value (a guard that returned). The
 * condition is given twice at the same offsets: masked (strings blanked) and as written.
 */
export function refinementsWhen(masked: string, original: string, holds: boolean): Refinement[] {
  const refinements = refinementsOf(masked, holds);
  // Each conjunct where the condition holds (each disjunct where it fails), as written: `if '..' in
  // name or '/' in name: abort()` leaves a name that holds neither.
  for (const [start, end] of topLevelParts(masked, holds)) {
    const part = stripParens(original.slice(start, end).trim());
    const negated = /^(?:!|not\s+)\s*(.*)$/s.exec(part);
    let body = negated?.[1] !== undefined ? stripParens(negated[1]) : part;
    let isAffirmed = negated === null;
    // `x !~ re` (Ruby) holds where `x =~ re` fails.
    const unmatched = /^([@\w]+)\s*!~\s*/.exec(body);
    if (unmatched !== null) {
      body = `${unmatched[1] ?? ''} =~ ${body.slice(unmatched[0].length)}`;
      isAffirmed = !isAffirmed;
    }
    // A type test proves what it tests where it holds; a separator or quote test, where it fails.
    const patterns = isAffirmed === holds ? TYPE_CHECK : [];
    for (const pattern of patterns) {
      const match = pattern.exec(body);
      const name = match === null ? undefined : match[match.length - 1];
      if (name !== undefined && /^[$@]?[\w$]+$/.test(name))
        refinements.push({ name, kinds: ALL_KINDS });
    }
    if (isAffirmed === holds) continue;
    for (const pattern of SEPARATOR_TEST) {
      const match = pattern.exec(body);
      const name =
        match?.[1] !== undefined && /^[\w$]+$/.test(match[1])
          ? match[1]
          : (match?.[3] ?? match?.[2]);
      if (name !== undefined && /^[\w$]+$/.test(name))
        refinements.push({ name, kinds: SINK_KINDS.path });
    }
    for (const pattern of QUOTE_TEST) {
      const name = pattern.exec(body)?.[1];
      if (name !== undefined) refinements.push({ name, kinds: SINK_KINDS.xpath });
    }
  }
  return refinements;
}

function refinementsOf(condition: string, holds: boolean): Refinement[] {
  const text = stripParens(condition.trim());
  const conjunction = holds ? /\s*(?:&&|\band\b)\s*/ : /\s*(?:\|\||\bor\b)\s*/;
  const parts = splitTopLevel(text, conjunction);
  const refinements: Refinement[] = [];
  for (const part of parts.length > 1 ? parts : [text]) {
    const listed = allowListedName(part);
    // A tested call (`list.includes(url.split('.').pop())`) proves nothing about a variable.
    if (listed !== null && listed.isTrueWhenListed === holds && !listed.name.includes('(')) {
      refinements.push({ name: baseName(listed.name), kinds: ALL_KINDS });
      continue;
    }
    let body = part.trim();
    const negated = /^(?:!|not\s+)\s*(.*)$/s.exec(body);
    let wanted = negated === null ? holds : !holds;
    if (negated?.[1] !== undefined) body = stripParens(negated[1]);
    // `a !== b` is `!(a === b)`: `strpos($real, $root) !== 0` fails where the prefix check holds.
    const unequal = /^(.+?)\s*!(==?)\s*([^=].*)$/s.exec(body);
    if (unequal !== null) {
      body = `${unequal[1] ?? ''} =${unequal[2] ?? ''} ${unequal[3] ?? ''}`;
      wanted = !wanted;
    }
    if (!wanted) continue;
    for (const pattern of CONFINEMENT) {
      const match = pattern.exec(body);
      if (match?.[1] !== undefined) refinements.push({ name: match[1], kinds: SINK_KINDS.path });
    }
    for (const pattern of HOST_CHECK) {
      const match = pattern.exec(body);
      if (match?.[1] !== undefined) refinements.push({ name: match[1], kinds: SINK_KINDS.url });
    }
  }
  return refinements;
}

function isBalanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if (char === '(') depth++;
    else if (char === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function stripParens(text: string): string {
  let result = text.trim();
  while (result.startsWith('(') && result.endsWith(')') && isWhole(result))
    result = result.slice(1, -1).trim();
  return result;
}

// Whether the first `(` closes at the very end.
function isWhole(text: string): boolean {
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    if (text[at] === '(') depth++;
    else if (text[at] === ')') {
      depth--;
      if (depth === 0 && at < text.length - 1) return false;
    }
  }
  return true;
}

// The offsets of a masked condition's top-level conjuncts (`&&`, `and`) when it holds, or disjuncts
// (`||`, `or`) when it fails; a condition wrapped whole in parentheses is read inside them.
function topLevelParts(masked: string, holds: boolean): [number, number][] {
  const separator = holds ? /\s*(?:&&|\band\b)\s*/ : /\s*(?:\|\||\bor\b)\s*/;
  const parts = topLevelRanges(masked, separator);
  const trimmed = masked.trim();
  if (parts.length === 1 && trimmed.startsWith('(') && trimmed.endsWith(')') && isWhole(trimmed)) {
    const open = masked.indexOf('(');
    const close = masked.lastIndexOf(')');
    return topLevelRanges(masked.slice(0, close), separator, open + 1);
  }
  return parts;
}

function splitTopLevel(text: string, separator: RegExp): string[] {
  return topLevelRanges(text, separator)
    .map(([from, to]) => text.slice(from, to).trim())
    .filter((part) => part !== '');
}

// The [start, end) offsets of the text's parts between separators outside brackets, from `start`.
function topLevelRanges(text: string, separator: RegExp, start = 0): [number, number][] {
  const ranges: [number, number][] = [];
  const sticky = new RegExp(separator.source, 'y');
  let depth = 0;
  let from = start;
  for (let at = start; at < text.length; at++) {
    const code = text[at];
    if (code === '(' || code === '[') depth++;
    else if (code === ')' || code === ']') depth--;
    else if (
      depth === 0 &&
      (code === ' ' || code === '&' || code === '|' || code === 'a' || code === 'o')
    ) {
      sticky.lastIndex = at;
      const match = sticky.exec(text);
      if (match !== null && match[0].length > 0) {
        ranges.push([from, at]);
        at += match[0].length - 1;
        from = at + 1;
      }
    }
  }
  ranges.push([from, text.length]);
  return ranges;
}

// `$_GET['sort'] ?? ''` tests the same value as `$_GET['sort']`.
function withoutDefault(name: string): string {
  return name.replace(/\s*(?:\?\?|\|\|)\s*.*$/, '').trim();
}

// The variable a tested expression reads: `ext` in `ext.lower()`.
function baseName(name: string): string {
  return /^[$@]?[\w$]+(?:\.[\w$]+)*/.exec(name)?.[0] ?? name;
}
