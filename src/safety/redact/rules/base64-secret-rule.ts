import { Buffer } from 'node:buffer';
import { buildCanarySecrets } from '../canary-secrets.js';
import { compileRuleSet, type CompiledRuleSet } from '../compile-rule-set.js';
import type { AnchoredRule, RedactionRule, ValueRange } from '../redaction-rule.js';
import { CLOUD_PROVIDER_RULES } from './cloud-provider-rules.js';
import { CODE_HOST_RULES } from './code-host-rules.js';
import { PRIVATE_KEY_RULES } from './private-key-rules.js';
import { SERVICE_TOKEN_RULES } from './service-token-rules.js';
import { TELEGRAM_BOT_TOKEN_RULE } from './telegram-bot-token-rule.js';
import { VENDOR_TOKEN_RULES } from './vendor-token-rules.js';

// The rules whose secret names itself, so its decoded form needs no context: key blocks and
// self-identifying tokens. Rules that read a name before the value are not among them.
const SELF_NAMING_RULES: readonly RedactionRule[] = [
  ...PRIVATE_KEY_RULES.filter((rule) => rule.keywords.includes('-----begin')),
  ...VENDOR_TOKEN_RULES,
  ...CLOUD_PROVIDER_RULES.filter((rule) =>
    ['aws-access-key-id', 'google-api-key'].includes(rule.id),
  ),
  ...CODE_HOST_RULES,
  ...SERVICE_TOKEN_RULES,
  TELEGRAM_BOT_TOKEN_RULE,
];
// Compiled at the first encoded prefix seen, so start-up (and every scan worker) does not pay for it.
let innerRuleSet: CompiledRuleSet | undefined;

// A base64 run (standard or URL-safe alphabet) from its start; a wrapped block goes on over lines
// of one width (`base64` wraps at 76, PEM at 64), each line nothing but base64.
const BASE64_SEGMENT = /[A-Za-z0-9+/_-]{16,}={0,2}/y;
const WRAPPED_LINE = /\r?\n[ \t]*([A-Za-z0-9+/_-]+={0,2})[ \t]*(?=\r?\n|$)/y;
const MIN_WRAP_WIDTH = 60;
const BASE64_CHAR = /[A-Za-z0-9+/_-]/;
// A 4096-bit RSA key in PEM is about 3.3 KB; its base64 about 4.4 KB.
const MAX_RUN_CHARS = 16 * 1024;

/**
 * The base64 characters that every encoding of `prefix` at the start of the data opens with: 4
 * per 3 bytes, then 1 or 2 more for a remainder of 1 or 2 bytes.
 */
function encodedPrefix(prefix: string): string {
  const encoded = Buffer.from(prefix, 'latin1').toString('base64').replace(/=+$/, '');
  const whole = Math.floor(prefix.length / 3) * 4;
  return encoded.slice(0, whole + (prefix.length % 3));
}

/** Each self-naming rule's prefix as it is written (`AIza`, `ghp_`), read from its canary. */
function tokenPrefixes(): string[] {
  const rules = new Map(SELF_NAMING_RULES.map((rule) => [rule.id, rule]));
  const prefixes = new Set<string>(['-----BEGIN']);
  for (const canary of buildCanarySecrets()) {
    const rule = rules.get(canary.rule);
    if (rule === undefined) continue;
    for (const keyword of rule.keywords) {
      if (canary.value.toLowerCase().startsWith(keyword))
        prefixes.add(canary.value.slice(0, keyword.length));
    }
  }
  return [...prefixes];
}

// Encoded prefixes of fewer characters hit too often inside unrelated base64.
const MIN_ENCODED_PREFIX_CHARS = 4;
const ENCODED_PREFIXES = new Set(
  tokenPrefixes()
    .map(encodedPrefix)
    .filter((encoded) => encoded.length >= MIN_ENCODED_PREFIX_CHARS),
);

/**
 * Base64 that decodes to a private key block or a self-identifying token (`client-key-data:` in
 * a kubeconfig, a Helm value, a CI variable): the whole run, where it stands.
 */
export const BASE64_SECRET_RULE: AnchoredRule = {
  id: 'base64-encoded-secret',
  description: 'Base64 that decodes to a private key block or a self-identifying token',
  keywords: [...ENCODED_PREFIXES].map((encoded) => encoded.toLowerCase()),
  scope: 'anchored',
  findAt(text: string, at: number): ValueRange | undefined {
    if (at > 0 && BASE64_CHAR.test(text[at - 1] ?? '')) return undefined;
    if (![...ENCODED_PREFIXES].some((encoded) => text.startsWith(encoded, at))) return undefined;
    const end = runEnd(text, at);
    if (end === undefined) return undefined;
    const decoded = Buffer.from(text.slice(at, end).replace(/\s+/g, ''), 'base64').toString(
      'latin1',
    );
    return holdsSecret(decoded) ? { start: at, end } : undefined;
  },
};

/** Where the base64 run starting at `at` ends, over the lines of a wrapped block. */
function runEnd(text: string, at: number): number | undefined {
  BASE64_SEGMENT.lastIndex = at;
  const first = BASE64_SEGMENT.exec(text);
  if (first === null) return undefined;
  const width = first[0].length;
  let end = at + width;
  let last = first[0];
  while (width >= MIN_WRAP_WIDTH && last.length === width && !last.endsWith('=')) {
    WRAPPED_LINE.lastIndex = end;
    const line = WRAPPED_LINE.exec(text);
    if (line === null || (line[1] ?? '').length > width) break;
    last = line[1] ?? '';
    end = WRAPPED_LINE.lastIndex;
    if (end - at > MAX_RUN_CHARS) return undefined;
  }
  return end - at > MAX_RUN_CHARS ? undefined : end;
}

/** Whether a self-naming rule finds its secret in the decoded text. */
function holdsSecret(decoded: string): boolean {
  let found = false;
  innerRuleSet ??= compileRuleSet(SELF_NAMING_RULES);
  const inner = innerRuleSet;
  inner.keywordScanner.forEachHit(decoded, (at, keyword) => {
    if (found) return;
    for (const { rule } of inner.rulesByKeyword[keyword] ?? []) {
      if (rule.scope === 'anchored' && rule.findAt(decoded, at) !== undefined) found = true;
    }
  });
  return found;
}
