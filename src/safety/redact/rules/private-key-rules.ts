import { defineTokenRule } from '../define-token-rule.js';
import { isPlaceholderValue } from '../is-placeholder-value.js';
import type { AnchoredRule, ValueRange } from '../redaction-rule.js';
import { readKeyBlock } from './read-key-block.js';

// A service-account key without PEM armour is a long base64 string.
const MIN_BARE_KEY_CHARS = 100;

interface PrivateKeySpec {
  id: string;
  description: string;
  /** Whether the label between BEGIN and PRIVATE KEY (e.g. `RSA `, `OPENSSH `) is this rule's. */
  isOwnLabel: (label: string, isPgpBlock: boolean) => boolean;
}

function definePrivateKeyRule(spec: PrivateKeySpec): AnchoredRule {
  return {
    id: spec.id,
    description: spec.description,
    keywords: ['-----begin'],
    namesItself: true,
    scope: 'anchored',
    findAt(text: string, at: number): ValueRange | undefined {
      const block = readKeyBlock(text, at);
      if (block === undefined || !spec.isOwnLabel(block.label, block.isPgpBlock)) return undefined;
      return { start: at, end: block.end };
    },
  };
}

/** Whether a service-account "private_key" value holds a real key. */
function isServiceAccountKey(value: string): boolean {
  const begin = value.indexOf('-----BEGIN');
  if (begin !== -1) return readKeyBlock(value, begin) !== undefined;
  return value.length >= MIN_BARE_KEY_CHARS && !isPlaceholderValue(value);
}

export const PRIVATE_KEY_RULES: readonly AnchoredRule[] = [
  defineTokenRule({
    id: 'gcp-service-account',
    description: 'The "private_key" of a Google Cloud service-account JSON key',
    keywords: ['private_key'],
    pattern: /private_key["']\s*:\s*["']([^"'\r\n]{20,16384})["']/dy,
    isSecret: isServiceAccountKey,
  }),
  definePrivateKeyRule({
    id: 'openssh-private-key',
    description: 'An OpenSSH private key block',
    isOwnLabel: (label) => label === 'OPENSSH ',
  }),
  definePrivateKeyRule({
    id: 'pgp-private-key',
    description: 'A PGP private key block',
    isOwnLabel: (label, isPgpBlock) => label === 'PGP ' && isPgpBlock,
  }),
  definePrivateKeyRule({
    id: 'pem-private-key',
    description: 'A PEM private key block (RSA, EC, DSA, PKCS#8, encrypted)',
    isOwnLabel: (label, isPgpBlock) => label !== 'OPENSSH ' && !(label === 'PGP ' && isPgpBlock),
  }),
];
