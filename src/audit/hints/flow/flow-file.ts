import type { Language } from '../detect-languages.js';
import { REQUEST_INPUT } from '../request-input.js';
import { findFunctions } from './find-functions.js';
import { FLOW_LANGUAGES, type FlowLanguage } from './flow-language.js';
import type { FlowFunction, FlowNode, Span } from './flow-node.js';
import { maskCode } from './mask-code.js';
import { MaskedText } from './masked-text.js';
import { parseBraceStatements } from './parse-brace-statements.js';
import { parseIndentStatements } from './parse-indent-statements.js';

// Files larger than this (generated or minified code) are not parsed for flow.
const MAX_FLOW_FILE_CHARS = 400_000;

/** One file prepared for flow analysis: masked text, request reads, functions, parsed bodies. */
export class FlowFile {
  readonly masked: MaskedText;
  readonly functions: readonly FlowFunction[];
  /** Request reads in the masked text, by start offset: where each ends, and whether it can only be a string. */
  readonly requestReads: ReadonlyMap<number, RequestRead>;
  /** Spans the evaluator skips (function literals inside expressions): start to end. */
  readonly skips: ReadonlyMap<number, number>;
  readonly #bodies = new Map<FlowFunction | null, FlowNode[]>();

  private constructor(
    readonly original: string,
    readonly language: FlowLanguage,
    masked: string,
  ) {
    this.masked = new MaskedText(masked);
    this.functions = findFunctions(this.masked, language.mask.family, language.language === 'ruby');
    this.requestReads = findRequestReads(masked, language.language, original);
    const skips = new Map<number, number>();
    for (const fn of this.functions) skips.set(fn.params.start - 1, fn.body.end + 1);
    this.skips = skips;
  }

  /** A flow view of a file, or null when its language is not analysed or it is too large. */
  static open(text: string, languages: readonly Language[]): FlowFile | null {
    if (text.length > MAX_FLOW_FILE_CHARS) return null;
    const language = languages.map((l) => FLOW_LANGUAGES[l]).find((l) => l !== undefined);
    if (language === undefined) return null;
    return new FlowFile(text, language, maskCode(text, language.mask));
  }

  /** The statements of a function's body, or of the whole file for `null`; parsed once. */
  statementsOf(fn: FlowFunction | null): FlowNode[] {
    let nodes = this.#bodies.get(fn);
    if (nodes === undefined) {
      const span: Span = fn === null ? { start: 0, end: this.original.length } : fn.body;
      if (fn?.isExpressionBody === true) nodes = [{ kind: 'simple', ...span }];
      else if (this.language.mask.family === 'brace') {
        nodes = parseBraceStatements(this.masked, span, this.language.language !== 'go');
      } else {
        nodes = parseIndentStatements(
          this.masked,
          span,
          this.language.language === 'ruby' ? 'ruby' : 'python',
        );
      }
      this.#bodies.set(fn, nodes);
    }
    return nodes;
  }

  /** The innermost function whose body holds an offset, or null at the top level. */
  functionAt(offset: number): FlowFunction | null {
    let best: FlowFunction | null = null;
    for (const fn of this.functions) {
      if (fn.body.start <= offset && offset < fn.body.end) {
        if (best === null || fn.body.start >= best.body.start) best = fn;
      }
    }
    return best;
  }

  /** The function a body-less call names, preferring one that takes as many arguments. */
  functionNamed(name: string, argumentCount: number): FlowFunction | undefined {
    let fallback: FlowFunction | undefined;
    for (const fn of this.functions) {
      if (fn.name !== name) continue;
      const count = splitTopLevel(this.masked, fn.params).filter(
        (p) => !/^\s*(?:self|cls)\s*$/.test(this.masked.slice(p.start, p.end)),
      ).length;
      if (count === argumentCount) return fn;
      fallback ??= fn;
    }
    return fallback;
  }
}

/** One read of request input: a parsed body or query may be an object, a header or route parameter is a string. */
export interface RequestRead {
  end: number;
  isStringOnly: boolean;
}

// Reads whose values can hold objects or arrays (JSON bodies, bracketed query strings, PHP and Rails params).
const STRUCTURED_READS: Partial<Record<Language, RegExp>> = {
  js: /\b(?:req|request|ctx|context)(?:\.request)?\.(?:body|query|files?)\b|\bevent\.body\b/,
  python: /\brequest\.(?:json|get_json|data|form|values)\b/,
  php: /\$_(?:GET|POST|REQUEST|COOKIE|FILES)\b|\$request->(?:input|all|post|query|json)\b/,
  ruby: /\bparams\b/,
};

// Archive entry names are untrusted input too (zip slip), in files that open archives.
const ARCHIVE_INPUT: Partial<Record<Language, { library: RegExp; reads: RegExp }>> = {
  js: {
    library: /\b(?:adm-zip|unzipper|yauzl|jszip|tar-stream|tar|decompress|node-stream-zip)\b/,
    reads: /\.getEntries\s*\(|\.(?:entryName|fileName)\b|\bentry\.path\b|\bheader\.name\b/,
  },
  python: {
    library: /\b(?:zipfile|tarfile)\b/,
    reads: /\.(?:namelist|infolist|getmembers|getnames)\s*\(/,
  },
  java: {
    library: /\bjava\.util\.zip\b|\bZip(?:Input|File|Entry)|\bTarArchive/,
    reads: /\.getNextEntry\s*\(|\.getNextTarEntry\s*\(|\.entries\s*\(\s*\)/,
  },
  go: { library: /"archive\/(?:zip|tar)"/, reads: /\b\w+\.File\b(?!\s*\()|\.Next\s*\(\s*\)/ },
  php: { library: /\bZipArchive\b|\bPharData\b/, reads: /->getNameIndex\s*\(|->statIndex\s*\(/ },
  ruby: {
    library: /\bZip::File\b|\bGem::Package::TarReader\b/,
    reads: /\bZip::File\.open\b|\.each_entry\b/,
  },
};

function findRequestReads(
  masked: string,
  language: Language,
  original: string,
): Map<number, RequestRead> {
  const reads = new Map<number, RequestRead>();
  const input = REQUEST_INPUT[language];
  const archive = ARCHIVE_INPUT[language];
  const sources = [
    input,
    archive !== undefined && archive.library.test(original) ? archive.reads : undefined,
  ];
  for (const source of sources) {
    if (source === undefined) continue;
    const global = new RegExp(source.source, 'g');
    for (let match = global.exec(masked); match !== null; match = global.exec(masked)) {
      const end = match.index + match[0].length;
      reads.set(receiverStart(masked, match.index), {
        end,
        isStringOnly: !(STRUCTURED_READS[language]?.test(match[0]) ?? false),
      });
      if (match[0].length === 0) global.lastIndex++;
    }
  }
  return reads;
}

// A read written as a method (`.getParameter(`) starts at its receiver: `request.getParameter(`.
function receiverStart(masked: string, at: number): number {
  if (!/^(?:\.|->|::)/.test(masked.slice(at, at + 2))) return at;
  let start = at;
  for (;;) {
    const previous = masked[start - 1] ?? '';
    const two = masked.slice(Math.max(0, start - 2), start);
    if (/[\w$.]/.test(previous)) start--;
    else if (two === '->' || two === '::') start -= 2;
    else if (previous === ')') {
      const open = new MaskedText(masked).openOf(start - 1, Math.max(0, start - 400));
      if (open === -1) return start;
      start = open;
    } else return start;
  }
}

/** The comma-separated parts of a span, at bracket depth zero (empty parts dropped). */
export function splitTopLevel(masked: MaskedText, span: Span): Span[] {
  const text = masked.text;
  const parts: Span[] = [];
  let from = span.start;
  for (let at = span.start; at <= span.end; at++) {
    const code = text[at];
    if (at < span.end && (code === '(' || code === '[' || code === '{')) {
      at = masked.closeOf(at, span.end);
      continue;
    }
    if (at === span.end || code === ',') {
      if (masked.slice(from, at).trim() !== '') parts.push({ start: from, end: at });
      from = at + 1;
    }
  }
  return parts;
}
