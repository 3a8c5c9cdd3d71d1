import type { Language } from '../detect-languages.js';
import { splitTopLevel, type FlowFile } from './flow-file.js';
import type { FlowFunction } from './flow-node.js';
import {
  BINDING_ANNOTATION,
  HANDLER_SIGNATURE,
  INJECTED_DEPENDENCY,
  NOT_FROM_REQUEST,
  REQUEST_FIRST_VIEWS,
  REQUEST_PARTS,
  ROUTED_FUNCTIONS,
  UNANNOTATED_BOUND,
} from '../knowledge/sources.js';

/** One parameter position: the names it binds, and those a framework fills from the request. */
export interface Parameter {
  names: string[];
  requestNames: string[];
  /** `self` or `cls`: a method's receiver, not an argument at call sites. */
  isReceiver: boolean;
}

const TYPE_FIRST: readonly Language[] = ['java', 'csharp'];

/** The parameters of a function, with what a framework binds from the request. */
export function listParameters(file: FlowFile, fn: FlowFunction): Parameter[] {
  const masked = file.masked;
  const language = file.language.language;
  const header = file.original.slice(fn.header.start, fn.header.end);
  const isRouted = ROUTED_FUNCTIONS[language]?.test(header) === true;
  // A mapped method whose framework binds parameters that carry no annotation (`UNANNOTATED_BOUND`).
  const unannotated = UNANNOTATED_BOUND[language];
  const isMapped =
    unannotated?.route.test(file.original.slice(fn.header.start, fn.header.end)) === true ||
    isRouteTarget(file, fn);
  const pieces = splitTopLevel(masked, fn.params);
  // A view known by its first parameter: the later ones are the URL's captures.
  const isRequestFirst =
    REQUEST_FIRST_VIEWS[language]?.test(
      masked.slice(pieces[0]?.start ?? 0, pieces[0]?.end ?? 0),
    ) === true;
  // A destructured first parameter is a request only in a handler: typed `Request`, or next to `res`.
  const isHandler = HANDLER_SIGNATURE.test(masked.slice(fn.params.start, fn.params.end));
  return pieces.map((piece, position) => {
    const text = masked.slice(piece.start, piece.end).trim();
    const original = file.original.slice(piece.start, piece.end);
    if (text.startsWith('{')) {
      const names = destructuredNames(text.slice(1, closingBrace(text)));
      const requestNames =
        isHandler && position === 0 ? names.filter((n) => REQUEST_PARTS.test(n)) : [];
      return { names, requestNames, isReceiver: false };
    }
    const name = parameterName(text, language);
    if (name === null) return { names: [], requestNames: [], isReceiver: false };
    const isReceiver =
      language === 'python' && position === 0 && (name === 'self' || name === 'cls');
    const isBound =
      BINDING_ANNOTATION.test(original) ||
      (isMapped && unannotated?.parameter.test(original) === true) ||
      ((isRouted || (isRequestFirst && position > 0)) &&
        !NOT_FROM_REQUEST.test(name) &&
        !INJECTED_DEPENDENCY.test(original));
    return { names: [name], requestNames: isBound ? [name] : [], isReceiver };
  });
}

/** A file's route registrations naming a method (`Class::method`), and where each class opens. */
interface RouteTargets {
  named: Set<string>;
  classes: { at: number; name: string }[];
}
const routeTargets = new WeakMap<FlowFile, RouteTargets>();

/** Whether a route registration in the file names this method of its class (`[UserController::class, 'show']`). */
export function isRouteTarget(file: FlowFile, fn: FlowFunction): boolean {
  const patterns = UNANNOTATED_BOUND[file.language.language]?.targets;
  if (patterns === undefined || fn.name === null) return false;
  let targets = routeTargets.get(file);
  if (targets === undefined) {
    const named = new Set<string>();
    for (const pattern of patterns)
      for (const match of file.original.matchAll(new RegExp(pattern.source, 'g'))) {
        // A registration in a comment or a string is blanked in the masked text: not a route.
        if (file.masked.text[match.index] !== match[0][0]) continue;
        named.add(`${match[1] ?? ''}::${match[2] ?? ''}`);
      }
    // Outside strings and comments: the masked text.
    const classes = [...file.masked.text.matchAll(/\bclass\s+(\w+)/g)].map((match) => ({
      at: match.index,
      name: match[1] ?? '',
    }));
    targets = { named, classes };
    routeTargets.set(file, targets);
  }
  // The class the method is declared in: the last `class Name` before it.
  const owner = targets.classes.findLast((declared) => declared.at < fn.start)?.name;
  return owner !== undefined && targets.named.has(`${owner}::${fn.name}`);
}

function parameterName(text: string, language: Language): string | null {
  const withoutDefault = text.replace(/\s*=[^=>][\s\S]*$|\s*=$/, '').trim();
  if (language === 'php') return /\$[\w]+/.exec(withoutDefault)?.[0] ?? null;
  if (TYPE_FIRST.includes(language)) {
    return /([\w$]+)\s*(?:\[\s*\])?$/.exec(withoutDefault.replace(/\.\.\.$/, ''))?.[1] ?? null;
  }
  const bare = withoutDefault.replace(
    /^(?:\.\.\.|\*\*?|&|(?:public|private|protected|readonly|override)\s+)+/,
    '',
  );
  return /^[$A-Za-z_][\w$]*/.exec(bare)?.[0] ?? null;
}

/** Names bound by a destructuring pattern's inside: `a, b: c, ...rest` binds a, c and rest. */
export function destructuredNames(inside: string): string[] {
  const names: string[] = [];
  for (const part of inside.split(',')) {
    const trimmed = part
      .replace(/=[\s\S]*$/, '')
      .trim()
      .replace(/^\.\.\./, '');
    const renamed = /:\s*([$A-Za-z_][\w$]*)\s*$/.exec(trimmed);
    const name = renamed?.[1] ?? /^[$A-Za-z_][\w$]*/.exec(trimmed)?.[0];
    if (name !== undefined) names.push(name);
  }
  return names;
}

function closingBrace(text: string): number {
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    if (text[at] === '{') depth++;
    else if (text[at] === '}' && --depth === 0) return at;
  }
  return text.length;
}
