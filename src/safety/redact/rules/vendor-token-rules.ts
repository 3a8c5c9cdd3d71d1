import { Buffer } from 'node:buffer';
import { defineTokenRule, isRandomToken } from '../define-token-rule.js';
import { looksLikeWords } from '../looks-like-words.js';
import { defineContextRule } from '../define-context-rule.js';
import type { AnchoredRule, ValueRange, WindowRule } from '../redaction-rule.js';
import { takeGluedToken } from '../take-glued-token.js';
import { VENDOR_TOKEN_TABLE } from './vendor-token-table.js';

// Letters-only bodies this long are judged by their shape (`API-ENDPOINTCONFIGURATIONVALUES`).
const MIN_WORDY_BODY_CHARS = 12;
// Mixed-case random letters read as words about once in 7,000 at 16 letters, far less from 24 on.
const MIN_MIXED_WORDY_BODY_CHARS = 24;

/**
 * Whether the token's body (all after its prefix) is one long run of letters that reads as words
 * (`API-ENDPOINTCONFIGURATIONVALUES`, `hf_requiredCharacteristicTypes...`): a name, not a key.
 * Random bodies hold digits or separators, or are too long and mixed to read as words by chance.
 */
function hasWordyBody(value: string): boolean {
  const body = value.slice(value.search(/[_.~-]/) + 1);
  if (!/^[A-Za-z]+$/.test(body)) return false;
  const isOneCase = body === body.toLowerCase() || body === body.toUpperCase();
  if (body.length < (isOneCase ? MIN_WORDY_BODY_CHARS : MIN_MIXED_WORDY_BODY_CHARS)) return false;
  return looksLikeWords(body) || (isOneCase && isPronounceable(body));
}

// Words of any language written in Latin letters (`GSSAPI-VIRHEKAPSELOINTIMERKKIJONO`, Finnish) keep
// two letters in five vowels and no more than three consonants in a row; random letters of this
// length do both about once in 200 tries, and a one-case letters-only body is itself rare.
const MIN_PRONOUNCEABLE_BODY_CHARS = 20;
const MIN_PRONOUNCEABLE_VOWEL_SHARE = 0.4;
const MAX_PRONOUNCEABLE_CONSONANT_RUN = 3;

function isPronounceable(letters: string): boolean {
  if (letters.length < MIN_PRONOUNCEABLE_BODY_CHARS) return false;
  let vowels = 0;
  let run = 0;
  for (const char of letters.toLowerCase()) {
    if ('aeiouy'.includes(char)) {
      vowels += 1;
      run = 0;
    } else if (++run > MAX_PRONOUNCEABLE_CONSONANT_RUN) {
      return false;
    }
  }
  return vowels / letters.length >= MIN_PRONOUNCEABLE_VOWEL_SHARE;
}

/** Every self-identifying vendor token of the table, with the default randomness check. */
export const VENDOR_TOKEN_RULES: readonly AnchoredRule[] = VENDOR_TOKEN_TABLE.map((row) =>
  defineTokenRule({
    ...row,
    namesItself: true,
    isSecret: (value) =>
      isRandomToken(value) && !hasWordyBody(value) && (row.hasShape?.(value) ?? true),
  }),
);

// `<app id>|<app secret>`: 15 or 16 digits, a pipe (or `%7C`), then the secret. Pipes are everywhere
// in code, so the rule reads the lines around the word `facebook`, as the vendor's own docs write it.
const FACEBOOK_CONTEXT_LINES = 3;

export const FACEBOOK_APP_TOKEN_RULE: WindowRule = defineContextRule({
  id: 'facebook-app-token',
  description:
    'A Facebook app access token (15 or 16 digit app id, |, then the app secret) near "facebook"',
  keywords: ['facebook'],
  contextLines: FACEBOOK_CONTEXT_LINES,
  pattern: /(?<![A-Za-z0-9_])\d{15,16}(?:\||%7[Cc])[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g,
  isSecret: (value) => {
    const secret = value.slice(value.search(/[|%]/) + 1).replace(/^7[Cc]/, '');
    return isRandomToken(secret) && /[A-Za-z]/.test(secret) && /\d/.test(secret);
  },
});

// `sc_<5-30>.<4-6>.acc_<10-32>.<30-120>`; the prefix and the first two parts fit in this many characters.
const AUTHRESS_HEAD_CHARS = 48;
const AUTHRESS_KEY =
  /(?:sc|ext|scauth|authress)_[a-z0-9]{5,30}\.[a-z0-9]{4,6}\.acc[_-][a-z0-9-]{10,32}\.[a-z0-9+/_=-]{30,120}/gi;

/** An Authress service client access key, found from its `.acc_` and read from its prefix on. */
export const AUTHRESS_KEY_RULE: AnchoredRule = {
  id: 'authress-access-key',
  description: 'An Authress service client access key (sc_, ext_, scauth_, authress_ ... .acc_)',
  keywords: ['.acc_', '.acc-'],
  namesItself: true,
  scope: 'anchored',
  findAt(text: string, at: number): ValueRange | undefined {
    const from = Math.max(0, at - AUTHRESS_HEAD_CHARS);
    AUTHRESS_KEY.lastIndex = from;
    for (let match = AUTHRESS_KEY.exec(text); match !== null; match = AUTHRESS_KEY.exec(text)) {
      if (match.index > at) return undefined;
      const end = match.index + match[0].length;
      if (end > at && isRandomToken(match[0])) return takeGluedToken(text, match.index, end);
    }
    return undefined;
  },
};

interface SuffixTokenSpec {
  id: string;
  description: string;
  keywords: readonly string[];
  /** How many characters before the keyword the token starts. */
  before: number;
  /** Sticky pattern of the whole token, tried `before` characters ahead of the keyword. */
  pattern: RegExp;
}

/** A token whose telling part sits at a fixed distance inside it (`abcdQ~...`, `...-us12`). */
function defineInnerKeywordRule(spec: SuffixTokenSpec): AnchoredRule {
  const { pattern, before } = spec;
  return {
    id: spec.id,
    description: spec.description,
    keywords: spec.keywords,
    namesItself: true,
    scope: 'anchored',
    findAt(text: string, at: number): ValueRange | undefined {
      const start = at - before;
      if (start < 0) return undefined;
      pattern.lastIndex = start;
      const match = pattern.exec(text);
      if (match === null || !isRandomToken(match[0])) return undefined;
      return takeGluedToken(text, start, start + match[0].length);
    },
  };
}

export const INNER_KEYWORD_TOKEN_RULES: readonly AnchoredRule[] = [
  defineInnerKeywordRule({
    id: 'azure-ad-client-secret',
    description: 'An Azure AD (Entra ID) client secret (3 characters, a digit, Q~, then 31 to 34)',
    keywords: ['q~'],
    before: 4,
    pattern: /[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}/y,
  }),
  defineInnerKeywordRule({
    id: 'terraform-cloud-token',
    description: 'A Terraform Cloud / HCP token (14 characters, .atlasv1., then 60 to 70)',
    keywords: ['.atlasv1.'],
    before: 14,
    pattern: /[a-z0-9]{14}\.atlasv1\.[a-z0-9_=-]{60,70}/iy,
  }),
  defineInnerKeywordRule({
    id: 'maxmind-license-key',
    description: 'A MaxMind license key (6, _, 29 characters, _mmk)',
    keywords: ['_mmk'],
    before: 36,
    pattern: /[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk/y,
  }),
  defineInnerKeywordRule({
    id: 'mailchimp-api-key',
    description: 'A Mailchimp API key (32 hex, -us and a data-centre number)',
    keywords: ['-us'],
    before: 32,
    pattern: /[0-9a-f]{32}-us\d{1,2}/y,
  }),
];

// The base64 of `eyJ` (a JWT's start) is `ZXlK`; a decoded value must read as a JWT header and payload.
const BASE64_JWT = /ZXlK[A-Za-z0-9+/]{40,8000}={0,2}/y;

export const BASE64_JWT_RULE: AnchoredRule = defineTokenRule({
  id: 'jwt-base64',
  description: 'A base64-encoded JSON Web Token (ZXlK...)',
  keywords: ['zxlk'],
  pattern: BASE64_JWT,
  isSecret: (value) =>
    /^eyJ[A-Za-z0-9_-]+\.eyJ/.test(Buffer.from(value, 'base64').toString('latin1')),
});

// `.npmrc`: `//registry.npmjs.org/:_authToken=...` (any registry), including legacy UUID tokens.
export const NPMRC_AUTH_TOKEN_RULE: AnchoredRule = defineTokenRule({
  id: 'npmrc-auth-token',
  description: 'An npm registry token in .npmrc (_authToken=, _auth=, _password=)',
  keywords: ['_authtoken', '_auth=', '_password='],
  // The key follows `:` (a registry scope) or starts a line, as .npmrc writes it.
  pattern: /(?<=^|[:\n])_(?:authToken|auth|password)[ \t]*=[ \t]*["']?([^\s"'#;]{8,2048})/diy,
});

// Jenkins `credentials.xml` keeps each secret as `{<base64>}` in an element of its own.
export const JENKINS_CREDENTIAL_RULE: AnchoredRule = defineTokenRule({
  id: 'jenkins-credential',
  description: 'A Jenkins stored credential (<secret>{...}</secret>, <password>{...}</password>)',
  keywords: [
    '<secret>{',
    '<password>{',
    '<privatekey>{',
    '<passphrase>{',
    '<token>{',
    '<apitoken>{',
  ],
  pattern: /<(?:secret|password|privateKey|passphrase|token|apiToken)>\{([^{}<\n]{8,4096})\}</diy,
  isSecret: (value) => !/^\$\{/.test(value),
});
