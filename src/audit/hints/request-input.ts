import type { Language } from './detect-languages.js';
import { LOOK_BACK_SANITISER } from './knowledge/sanitisers.js';
import { BOUND_PARAMETER, REQUEST_INPUT } from './knowledge/sources.js';

// The assignment a request read ends: `name =`, `const { a, b } =`, `$name =`, `name :=`.
const ASSIGNED_NAMES = /([$@]?[A-Za-z_][\w$]*|\{[^{}]*\}|\[[^[\]]*\])\s*(?::=|=)(?![=>])[^=;]*$/;
const DESTRUCTURED_NAME =
  /(?:^|[,{[]\s*)(?:\.\.\.)?(?:[\w$]+\s*:\s*)?([$A-Za-z_][\w$]*)\s*(?==|,|$|\})/g;
// Names too generic to track: they would taint unrelated lines.
const UNTRACKED_NAMES = new Set([
  'req',
  'res',
  'request',
  'response',
  'ctx',
  'this',
  'self',
  'params',
]);
// Enough for real handlers; bounds the alternation built from them.
const MAX_TRACKED_NAMES = 64;

/** Variables a piece of code assigns from request input (or binds from it by annotation), for sink rules. */
export function findRequestDerivedNames(text: string, language: Language): string[] {
  const input = REQUEST_INPUT[language];
  if (input === undefined) return [];
  const names = new Set<string>();
  const global = globalRequestInput(language, input);
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    const lineStart = text.lastIndexOf('\n', match.index) + 1;
    const before = text.slice(lineStart, match.index);
    addAssignedBefore(before, names);
    if (names.size >= MAX_TRACKED_NAMES) break;
  }
  followAssignments(text, names);
  const bound = BOUND_PARAMETER[language];
  if (bound !== undefined) {
    bound.lastIndex = 0;
    for (let match = bound.exec(text); match !== null; match = bound.exec(text)) {
      if (match[1] !== undefined) names.add(match[1]);
    }
  }
  return [...names].slice(0, MAX_TRACKED_NAMES);
}

const globalRequestInputs = new Map<Language, RegExp>();

function globalRequestInput(language: Language, input: RegExp): RegExp {
  let global = globalRequestInputs.get(language);
  if (global === undefined) {
    global = new RegExp(input.source, 'g');
    globalRequestInputs.set(language, global);
  }
  global.lastIndex = 0;
  return global;
}

// Hops followed from a request read through plain assignments (`a = req.x; b = a + "/"; c = f(b)`).
const MAX_HOPS = 3;

// Adds the names assigned on a line whose right-hand side so far is `before`, unless it sanitises.
function addAssignedBefore(before: string, names: Set<string>): void {
  const assigned = ASSIGNED_NAMES.exec(before);
  if (assigned?.[1] === undefined) return;
  if (LOOK_BACK_SANITISER.test(before.slice(assigned.index + assigned[1].length))) return;
  addAssigned(assigned[1], names);
}

/** Names assigned from tracked names, a few hops deep; one pass over the text per hop. */
function followAssignments(text: string, names: Set<string>): void {
  for (let hop = 0; hop < MAX_HOPS && names.size > 0 && names.size < MAX_TRACKED_NAMES; hop++) {
    const before = names.size;
    const uses = new RegExp(
      `(?<![\\w$.])(?:${[...names].map(escapeName).join('|')})(?![\\w$])`,
      'g',
    );
    for (let match = uses.exec(text); match !== null; match = uses.exec(text)) {
      const lineStart = text.lastIndexOf('\n', match.index) + 1;
      addAssignedBefore(text.slice(lineStart, match.index), names);
      if (names.size >= MAX_TRACKED_NAMES) return;
    }
    if (names.size === before) return;
  }
}

function escapeName(name: string): string {
  return name.replace(/[$]/g, '\\$');
}

function addAssigned(target: string, names: Set<string>): void {
  const first = target[0];
  if (first === '{' || first === '[') {
    for (const match of target.slice(1, -1).matchAll(DESTRUCTURED_NAME)) {
      if (match[1] !== undefined && !UNTRACKED_NAMES.has(match[1])) names.add(match[1]);
    }
    return;
  }
  if (!UNTRACKED_NAMES.has(target)) names.add(target);
}
