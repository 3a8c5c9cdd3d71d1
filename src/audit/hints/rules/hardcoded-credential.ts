import type { CategoryRules, HintRule, RuleLanguage } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './hardcoded-credential.examples.json' with { type: 'json' };

const CODE: readonly RuleLanguage[] = ['js', 'python', 'java', 'go', 'php', 'ruby', 'csharp'];
// A string literal the redactor left alone (it replaces what looks random): readable, 6 to 64
// characters, and none of: a placeholder, an all-caps message key, the field's own name
// (`type: 'password'`), spaces (labels), `/` (routes), brackets, `%` or `$` (templates), a file name.
const READABLE_VALUE = [
  String.raw`(["'\x60])`,
  String.raw`(?!\[REDACTED)`,
  String.raw`(?![A-Z0-9_]+\1)`,
  String.raw`(?!(?:current-|new-)?(?:[Pp]assword|[Pp]asswd|[Ss]ecret|[Pp]wd)\1)`,
  String.raw`(?![^"'\x60]*[\s/<>{}%$])`,
  String.raw`(?![^"'\x60]*\.(?:pem|key|crt|json|txt|ya?ml|env|html?)\1)`,
  String.raw`[^"'\x60\\]{6,64}\1`,
].join('');
// Names of variables and keys that hold a password or secret: `testingPassword`, `DB_PASSWORD`, `'password' =>`.
const SECRET_NAME = String.raw`[\w$]*(?:[Pp]assword|PASSWORD|[Pp]asswd|PASSWD|[Pp]assphrase|PASSPHRASE|[Ss]ecret[A-Z_]?\w*|SECRET|[Pp]wd|PWD)[\w$]*`;

const READABLE_PASSWORD: HintRule = {
  id: 'secret/readable-password',
  category: 'hardcoded-credential',
  severity: 'medium',
  description:
    'A password or secret written into code as a readable literal (`testingPassword = "IamUsedForTesting"`), which the redactor keeps because it looks like words.',
  message:
    'A password or secret is written into the code as a readable literal; anyone with the source has it. Load it from configuration or a secret store.',
  matchers: [
    {
      kind: 'code',
      languages: CODE,
      keywords: ['assw', 'ecret', 'pwd'],
      isKeywordInsideWords: true,
      pattern: new RegExp(
        String.raw`(?<![\w$])["']?${SECRET_NAME}["']?\s*(?:=|:|=>|:=)\s*${READABLE_VALUE}\s*(?:[,;)\]}]|$)`,
      ),
      // Comparisons and type annotations are not assignments; a Rails route maps a path to
      // `controller#action` (`get "forgot_password" => "password_resets#forgot_password"`).
      unless:
        /(?:===?|!==?)\s*["'`]|:\s*(?:string|str|String)\b|^\s*(?:get|post|put|patch|delete|match)\s*\(?\s*["'][^"']*["']\s*(?:=>|,)\s*["'][\w/]+#\w+["']/,
    },
  ],
};

// A literal passed where a signing key goes: HMAC keys, JWT secrets. Each use captures its quote.
let keyGroups = 0;
function literalKey(): string {
  const group = `key${++keyGroups}`;
  return String.raw`(?<${group}>["'\x60])(?!\[REDACTED)(?!\s*\k<${group}>)[^"'\x60\\$]{4,}\k<${group}>`;
}

const LITERAL_SIGNING_KEY: HintRule = {
  id: 'secret/literal-signing-key',
  category: 'hardcoded-credential',
  severity: 'high',
  description:
    'A string literal passed as an HMAC or JWT signing key (`createHmac("sha256", "…")`, `jwt.sign(payload, "…")`).',
  message:
    'A signing key is written into the code: anyone with the source can forge signatures or tokens. Load the key from configuration or a secret store.',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      keywords: ['createhmac', 'jwt.sign', 'jwt.verify'],
      pattern: new RegExp(
        String.raw`\bcreateHmac\s*\(\s*["'\x60][\w-]+["'\x60]\s*,\s*${literalKey()}|\bjwt\.(?:sign|verify)\s*\(\s*(?:\{[^{}]*\}|[\w$.]+(?:\([^()]*\))?)\s*,\s*${literalKey()}`,
      ),
    },
    {
      kind: 'code',
      languages: ['python'],
      keywords: ['hmac.new', 'jwt.encode', 'jwt.decode'],
      pattern: new RegExp(
        String.raw`\bhmac\.new\s*\(\s*b?${literalKey()}|\bjwt\.(?:encode|decode)\s*\(\s*(?:\{[^{}]*\}|[\w.]+)\s*,\s*b?${literalKey()}`,
      ),
    },
    {
      kind: 'code',
      languages: ['java'],
      keywords: ['hmac', 'secretkeyspec', 'signwith'],
      pattern: new RegExp(
        String.raw`\bAlgorithm\.HMAC(?:256|384|512)\s*\(\s*${literalKey()}|\bnew\s+SecretKeySpec\s*\(\s*${literalKey()}\s*\.getBytes|\.signWith\s*\(\s*[\w.]+\s*,\s*${literalKey()}`,
      ),
    },
    {
      kind: 'code',
      languages: ['go'],
      keywords: ['signedstring', 'hmac.new'],
      pattern: new RegExp(
        String.raw`\.SignedString\s*\(\s*\[\]byte\s*\(\s*${literalKey()}|\bhmac\.New\s*\(\s*[\w.]+\s*,\s*\[\]byte\s*\(\s*${literalKey()}`,
      ),
    },
    {
      kind: 'code',
      languages: ['php'],
      keywords: ['hash_hmac', 'jwt::encode', 'jwt::decode'],
      pattern: new RegExp(
        String.raw`\bhash_hmac\s*\(\s*["'][\w-]+["']\s*,\s*[^,]+,\s*${literalKey()}|\bJWT::(?:encode|decode)\s*\(\s*[^,]+,\s*${literalKey()}`,
      ),
    },
    {
      kind: 'code',
      languages: ['ruby'],
      keywords: ['openssl::hmac', 'jwt.encode', 'jwt.decode'],
      pattern: new RegExp(
        String.raw`\bOpenSSL::HMAC\.(?:hexdigest|digest)\s*\(\s*[^,]+,\s*${literalKey()}|\bJWT\.(?:encode|decode)\s*\(\s*[^,]+,\s*${literalKey()}`,
      ),
    },
  ],
};

export const HARDCODED_CREDENTIAL_CATEGORY: CategoryRules = {
  category: 'hardcoded-credential',
  label: 'Hard-coded credentials',
  rules: [READABLE_PASSWORD, LITERAL_SIGNING_KEY],
  examples: readExamples(EXAMPLES, 'hardcoded-credential.examples.json'),
};
