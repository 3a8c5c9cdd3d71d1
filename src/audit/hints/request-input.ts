import type { Language } from './detect-languages.js';

/** Expressions that read what an HTTP client sent, per language. */
export const REQUEST_INPUT: Partial<Record<Language, RegExp>> = {
  js: /\breq\.(?:params|query|body|headers|cookies|signedCookies|files?|originalUrl|url|path)\b|\breq\.(?:get|header|param)\s*\(|\b(?:request|ctx|context)\.(?:params|query|body|cookies|files?)\b|\bctx\.request\.(?:body|query)\b|\bevent\.(?:queryStringParameters|pathParameters|multiValueQueryStringParameters|body)\b|\bsearchParams\.get\s*\(/,
  python:
    /\brequest\.(?:args|form|values|files|json|get_json|data|GET|POST|FILES|query_params|path_params|headers|cookies|body|match_info|query|rel_url)\b/,
  ruby: /\bparams\s*\[|\bparams\.(?:fetch|require|permit|dig)\b|\brequest\.(?:params|query_string|body|headers|url|path|referer|raw_post)\b|\bcookies\s*\[/,
  php: /\$_(?:GET|POST|REQUEST|COOKIE|FILES|SERVER)\b|\$request->(?:input|get|query|post|file|all|route|header)\s*\(|\brequest\(\)\s*->|\bRequest::(?:input|get|query)\s*\(|\$this->request->/,
  java: /\.getParameter(?:Values|Map|Names)?\s*\(|\.getQueryString\s*\(|\.getPathInfo\s*\(|\.getRequestURI\s*\(|\.getHeaders?\s*\(|\.getHeaderNames\s*\(|\.getInputStream\s*\(|\.getReader\s*\(|\.getCookies\s*\(|\.getParts?\s*\(/,
  go: /\br\.URL\.(?:Query|Path|RawQuery)\b|\.(?:Form|PostForm)Value\s*\(|\br\.(?:Form|PostForm|Body)\b|\bmux\.Vars\s*\(|\bc\.(?:Param|Query|PostForm|DefaultQuery|QueryParam|FormValue)\s*\(|\bchi\.URLParam\s*\(|\br\.Header\.Get\s*\(|\bctx\.(?:Param|Query|FormValue)\s*\(/,
  csharp:
    /\bRequest\.(?:Query|Form|QueryString|Params|Headers|Cookies|Body|RouteValues|Path)\b|\bHttpContext\.Request\b/,
  perl: /\bparam\s*\(|->(?:url_)?param\s*\(|\$ENV\{['"]?(?:QUERY_STRING|REQUEST_URI|HTTP_\w+)|\$(?:cgi|q)->(?:param|Vars)\b/,
};

// Parameters bound from the request by a framework annotation: `@RequestParam String name`, `[FromQuery] string name`.
const BOUND_PARAMETER: Partial<Record<Language, RegExp>> = {
  java: /@(?:RequestParam|PathVariable|RequestHeader|RequestBody)\b(?:\([^)]*\))?\s+(?:final\s+)?[\w<>[\].?]+\s+(\w+)/g,
  csharp: /\[From(?:Query|Body|Route|Form|Header)\b(?:\([^)]*\))?\]\s*[\w<>[\].?]+\s+(\w+)/g,
};

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

// Calls whose result no longer carries the raw request value for the sinks these rules watch.
const SANITISER =
  /\b(?:escape\w*|encode\w*|Encode\.for\w+|sanitize\w*|sanitise\w*|basename|secure_filename|htmlspecialchars|htmlentities|escapeshellarg|escapeshellcmd|escape_filter_chars|quote|shlex\.quote|Base|parseInt|parseFloat|Number|int|float|Integer\.parseInt|Long\.parseLong|intval|to_i|uuid\.UUID)\s*\(/;
// Hops followed from a request read through plain assignments (`a = req.x; b = a + "/"; c = f(b)`).
const MAX_HOPS = 3;

// Adds the names assigned on a line whose right-hand side so far is `before`, unless it sanitises.
function addAssignedBefore(before: string, names: Set<string>): void {
  const assigned = ASSIGNED_NAMES.exec(before);
  if (assigned?.[1] === undefined) return;
  if (SANITISER.test(before.slice(assigned.index + assigned[1].length))) return;
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
