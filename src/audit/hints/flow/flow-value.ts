/**
 * What the flow analysis knows about a value: whether it may carry request input (`tainted`),
 * certainly does not (`clean`: constants, numbers, allow-listed or sanitised values), or comes from
 * somewhere this file does not show (`unknown`: a parameter, a field, another module).
 */
export type Taint = 'tainted' | 'unknown' | 'clean';

/** Sink kinds a sanitiser can make a value safe for, as bits. */
export const SINK_KINDS = {
  html: 1,
  sql: 2,
  shell: 4,
  path: 8,
  url: 16,
  ldap: 32,
  xpath: 64,
  code: 128,
  nosql: 256,
  template: 512,
  session: 1024,
  header: 2048,
} as const;

export type SinkKind = keyof typeof SINK_KINDS;

/** Every kind at once: what a number or an allow-listed value is safe for. */
export const ALL_KINDS = Object.values(SINK_KINDS).reduce((all, bit) => all | bit, 0);

export interface FlowValue {
  taint: Taint;
  /** Bits of the sink kinds the value's tainted (or, when none is, unknown) parts were all sanitised for. */
  cleanFor: number;
  /** A tainted value that also holds parts of unknown origin: once sanitised, it is unknown, not clean. */
  isPartlyUnknown?: boolean;
  /** The request-derived name the taint came through, for messages; absent when read directly. */
  via?: string;
  /** A known constant (a literal, or folded from literals). */
  constant?: string | number | boolean;
  /** List elements in order, when the value is a list built here. */
  items?: FlowValue[];
  /** Map entries by constant key, when the value is a map built here. */
  entries?: Map<string, FlowValue>;
  /** Whether the value wraps the request object (`new Wrapper(request)`): its getters read input. */
  wrapsRequest?: boolean;
  /** Whether the value is a template compiled by an escaping engine (`knowledge/responses.ts`): calling it yields its own text. */
  isEscapingTemplate?: boolean;
}

export const CLEAN: FlowValue = { taint: 'clean', cleanFor: 0 };
export const UNKNOWN: FlowValue = { taint: 'unknown', cleanFor: 0 };
export const DIRECT_INPUT: FlowValue = { taint: 'tainted', cleanFor: 0 };

const RANK: Readonly<Record<Taint, number>> = { clean: 0, unknown: 1, tainted: 2 };
// Containers are summarised past this size, so a loop that adds forever cannot grow them.
const MAX_CONTAINER_SIZE = 32;

export function constantValue(constant: string | number | boolean): FlowValue {
  return { taint: 'clean', cleanFor: 0, constant };
}

/** The value of either of two paths (a branch, a loop, a ternary): the worse taint wins. */
export function joinValues(a: FlowValue, b: FlowValue): FlowValue {
  if (a === b) return a;
  const taint = RANK[a.taint] >= RANK[b.taint] ? a.taint : b.taint;
  const result: FlowValue = { taint, cleanFor: joinCleanFor(taint, a, b) };
  if (taint === 'tainted' && (isUnknownPart(a) || isUnknownPart(b))) result.isPartlyUnknown = true;
  const via = a.taint === 'tainted' ? a.via : b.via;
  if (via !== undefined && taint === 'tainted') result.via = via;
  if (a.constant !== undefined && a.constant === b.constant) result.constant = a.constant;
  if (a.wrapsRequest === true || b.wrapsRequest === true) result.wrapsRequest = true;
  if (a.isEscapingTemplate === true && b.isEscapingTemplate === true)
    result.isEscapingTemplate = true;
  if (a.items !== undefined && b.items !== undefined && a.items.length === b.items.length) {
    result.items = a.items.map((item, index) => joinValues(item, b.items?.[index] ?? CLEAN));
  }
  if (a.entries !== undefined && b.entries !== undefined) {
    const entries = new Map<string, FlowValue>();
    for (const key of new Set([...a.entries.keys(), ...b.entries.keys()])) {
      entries.set(key, joinValues(a.entries.get(key) ?? CLEAN, b.entries.get(key) ?? CLEAN));
    }
    result.entries = entries;
  }
  return result;
}

// Sanitising is tracked for the worst parts: tainted ones when there are any, else unknown ones.
function joinCleanFor(taint: Taint, a: FlowValue, b: FlowValue): number {
  const counts = (value: FlowValue): boolean => value.taint === taint;
  if (counts(a) && counts(b)) return a.cleanFor & b.cleanFor;
  if (counts(a)) return a.cleanFor;
  if (counts(b)) return b.cleanFor;
  return 0;
}

function isUnknownPart(value: FlowValue): boolean {
  return value.taint === 'unknown' || value.isPartlyUnknown === true;
}

/** Joins many values; none is a constant-free clean value (an expression of literals only). */
export function joinAll(values: readonly FlowValue[]): FlowValue {
  let result: FlowValue | null = null;
  for (const value of values)
    result = result === null ? value : joinValues(result, withoutContainer(value));
  return result ?? CLEAN;
}

// A part of a larger expression: its contents matter, its shape does not.
function withoutContainer(value: FlowValue): FlowValue {
  if (value.items === undefined && value.entries === undefined) return value;
  const { items: _items, entries: _entries, ...rest } = value;
  return rest;
}

/** A value made safe for some sink kinds (an encoder); made safe for all (a number), it is clean. */
export function sanitised(value: FlowValue, kinds: number): FlowValue {
  if (value.taint === 'clean' || kinds === ALL_KINDS) return CLEAN;
  return { ...withoutContainer(value), cleanFor: value.cleanFor | kinds };
}

/** A list value whose summary taint is the join of its items. */
export function listValue(items: FlowValue[]): FlowValue {
  if (items.length > MAX_CONTAINER_SIZE) return withoutContainer(joinAll(items));
  return { ...withoutContainer(joinAll(items)), items };
}

/** A map value whose summary taint is the join of its entries. */
export function mapValue(entries: Map<string, FlowValue>): FlowValue {
  if (entries.size > MAX_CONTAINER_SIZE) return withoutContainer(joinAll([...entries.values()]));
  return { ...withoutContainer(joinAll([...entries.values()])), entries };
}

/** What a sink of this kind sees: a value sanitised for it is clean (or unknown, if parts of it were). */
export function taintFor(value: FlowValue, kind: SinkKind): Taint {
  if ((value.cleanFor & SINK_KINDS[kind]) === 0) return value.taint;
  return value.taint === 'tainted' && value.isPartlyUnknown === true ? 'unknown' : 'clean';
}
