import type { CategoryRules, CodeMatcher, HintRule } from '../hint-rule.js';
import { weakRandomOf } from '../knowledge/randomness.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './weak-crypto.examples.json' with { type: 'json' };

const PASSWORD_NEARBY = {
  pattern: /passw(?:or)?d|\bpwd\b|passphrase|credential/i,
  before: 3,
  after: 3,
};

// Names that say a random value guards something (case-sensitive so `void` is not an `Id`). Not a
// captcha: its challenge is shown to the user, so guessing it gains nothing.
const RANDOM_PURPOSE =
  /[Tt]oken|TOKEN|[Ss]ecret|SECRET|[Pp]ass(?:word|wd|phrase)|PASS(?:WORD|WD)|\b[Pp]wd\b|[Nn]once|NONCE|[Ss]alt\b|SALT|[Cc]srf|CSRF|[Xx]srf|XSRF|[Ss]ession|SESSION|[Aa]pi_?[Kk]ey|API_?KEY|[Uu]uid|UUID|[Gg]uid|GUID|(?<![A-Za-z])[Oo]tp(?![a-z])|OTP|[Ii]nvite|[Vv]erification|[Rr]emember|REMEMBER|[Rr]eset[A-Z_]|[Aa]ctivation|[Cc]oupon|[Vv]oucher|\bids?\b|_ids?\b|[a-z]I[dD]s?\b|\bID\b|[a-z]Key\b|_key\b|\bsid\b/;
const SECRET_PURPOSE =
  /[Tt]oken|TOKEN|[Ss]ecret|SECRET|[Pp]ass(?:word|wd|phrase)|PASS(?:WORD|WD)|[Nn]once|NONCE|[Ss]alt\b|SALT|[Cc]srf|CSRF|[Aa]pi_?[Kk]ey|API_?KEY|(?<![A-Za-z])[Oo]tp(?![a-z])|OTP|[Ss]ession|SESSION|[Rr]emember[A-Z_]|[Rr]eset[A-Z_]/;
// The purpose is named on the line, on the two lines that use the value, or by the function or class.
const RANDOM_NEAR = { before: 0, after: 2, requires: RANDOM_PURPOSE, isEnclosingNameEnough: true };
// A random delay or retry jitter (`sleep(rand(0, 3))`, `setTimeout(f, Math.random() * 500)`) guards nothing.
const RANDOM_DELAY =
  /\b(?:u?sleep|setTimeout|setInterval|delay|backoff|jitter)\w*\s*\(|\bsleep\s+rand\b/i;
const RANDOM_ESCALATION = {
  severity: 'high' as const,
  near: { pattern: SECRET_PURPOSE, before: 0, after: 2 },
};

const WEAK_HASH: HintRule = {
  id: 'crypto/weak-hash',
  category: 'weak-crypto',
  severity: 'low',
  description: 'MD5 or SHA-1 (high when a password is mentioned within three lines).',
  message:
    'MD5/SHA-1 is broken for collision resistance; fine for cache keys, not for passwords, signatures or integrity against an attacker.',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      isStringScanned: false,
      keywords: ['createhash', 'md5', 'sha1'],
      pattern: /\bcreateHash\s*\(\s*["'](?:md5|md4|sha-?1)["']|(?<![\w$.])(?:md5|sha1)\s*\(/i,
      escalate: { severity: 'high', near: PASSWORD_NEARBY },
    },
    {
      kind: 'code',
      languages: ['python'],
      isStringScanned: false,
      keywords: ['hashlib', 'md5.new', 'sha.new', 'sha1.new'],
      pattern:
        /\bhashlib\.(?:md5|sha1|md4)\s*\(|\bhashlib\.new\s*\(\s*["'](?:md5|sha1|md4)["']|\b(?:MD5|SHA1?)\.new\s*\(/,
      unless: /\busedforsecurity\s*=\s*False\b/,
      escalate: { severity: 'high', near: PASSWORD_NEARBY },
    },
    {
      kind: 'code',
      languages: ['java'],
      isStringScanned: false,
      keywords: ['messagedigest', 'digestutils', 'hashing'],
      pattern:
        /\bMessageDigest\.getInstance\s*\(\s*"(?:MD5|MD2|MD4|SHA-?1|SHA)"|\bDigestUtils\.(?:md5|sha1|sha)(?:Hex)?\s*\(|\bHashing\.(?:md5|sha1)\s*\(/,
      escalate: { severity: 'high', near: PASSWORD_NEARBY },
    },
    {
      kind: 'code',
      languages: ['go'],
      isStringScanned: false,
      keywords: ['md5', 'sha1'],
      pattern: /\b(?:md5|sha1)\.(?:New|Sum)\s*\(/,
      escalate: { severity: 'high', near: PASSWORD_NEARBY },
    },
    {
      kind: 'code',
      languages: ['csharp'],
      isStringScanned: false,
      keywords: ['md5', 'sha1'],
      pattern:
        /\b(?:MD5|SHA1)(?:CryptoServiceProvider|Managed|Cng)?\.(?:Create|HashData)\s*\(|\bnew\s+(?:MD5|SHA1)(?:CryptoServiceProvider|Managed|Cng)\s*\(/,
      escalate: { severity: 'high', near: PASSWORD_NEARBY },
    },
    {
      kind: 'code',
      languages: ['php'],
      isStringScanned: false,
      keywords: ['md5', 'sha1', 'hash'],
      pattern: /(?<![\w>:$])(?:md5|sha1)\s*\(|\bhash\s*\(\s*["'](?:md5|sha1|md4)["']/,
      escalate: { severity: 'high', near: PASSWORD_NEARBY },
    },
    {
      kind: 'code',
      languages: ['ruby', 'perl'],
      isStringScanned: false,
      keywords: ['digest', 'openssl', 'md5', 'sha1'],
      pattern:
        /\bDigest::(?:MD5|SHA1)\b|\bOpenSSL::Digest::(?:MD5|SHA1)\b|\bOpenSSL::Digest\.new\s*\(\s*["'](?:md5|sha1)["']|(?<![\w$>:])(?:md5|sha1)(?:_hex|_base64)\s*\(/,
      escalate: { severity: 'high', near: PASSWORD_NEARBY },
    },
  ],
};

// The rows of the weak-random table as matchers: the generator's calls, near a word that makes the value a secret.
function weakRandom(
  language: 'js' | 'python' | 'go' | 'java' | 'php' | 'ruby',
  conditions: Pick<CodeMatcher, 'unless' | 'fileRequires'> &
    Partial<Pick<CodeMatcher, 'languages'>>,
): CodeMatcher[] {
  return weakRandomOf(language).map((row) => ({
    kind: 'code',
    languages: [language],
    isStringScanned: false,
    keywords: row.keywords,
    pattern: row.pattern,
    ...(row.receiver === undefined ? {} : { receiver: row.receiver }),
    near: RANDOM_NEAR,
    escalate: RANDOM_ESCALATION,
    ...conditions,
    ...(row.fileRequires === undefined ? {} : { fileRequires: row.fileRequires }),
  }));
}

const INSECURE_RANDOM: HintRule = {
  id: 'crypto/insecure-random',
  category: 'weak-crypto',
  severity: 'medium',
  description:
    'A non-cryptographic random generator used for an id, token, key or secret (high for secrets, tokens, passwords, nonces, sessions).',
  message:
    'Predictable random generator used for a value that may need to be unguessable; use a CSPRNG (crypto.randomUUID, secrets, SecureRandom, crypto/rand).',
  matchers: [
    // A React list key is not a secret.
    ...weakRandom('js', {
      languages: ['js', 'template'],
      unless: new RegExp(`\\bkey=\\{|${RANDOM_DELAY.source}`, 'i'),
    }),
    ...weakRandom('python', {
      unless: new RegExp(`\\bSystemRandom\\b|${RANDOM_DELAY.source}`, 'i'),
    }),
    ...weakRandom('java', { unless: RANDOM_DELAY }),
    ...weakRandom('go', { fileRequires: /"math\/rand(?:\/v2)?"/, unless: RANDOM_DELAY }),
    ...weakRandom('php', { unless: RANDOM_DELAY }),
    ...weakRandom('ruby', { unless: RANDOM_DELAY }),
    {
      kind: 'code',
      languages: ['csharp'],
      isStringScanned: false,
      keywords: ['new random', 'random.shared'],
      pattern: /\bnew\s+Random\s*\(|\bRandom\.Shared\b/,
      unless: RANDOM_DELAY,
      near: RANDOM_NEAR,
      escalate: RANDOM_ESCALATION,
    },
    {
      kind: 'code',
      languages: ['perl'],
      isStringScanned: false,
      keywords: ['rand'],
      pattern: /(?<![\w$>:])rand\s*[(\s]/,
      unless: RANDOM_DELAY,
      near: RANDOM_NEAR,
      escalate: RANDOM_ESCALATION,
    },
  ],
};

const ECB_MODE: HintRule = {
  id: 'crypto/ecb-mode',
  category: 'weak-crypto',
  severity: 'medium',
  description:
    'A block cipher in ECB mode (including Java Cipher.getInstance("AES"), which defaults to ECB).',
  message: 'ECB mode leaks patterns of the plaintext; use an authenticated mode such as AES-GCM.',
  matchers: [
    {
      kind: 'code',
      languages: ['js', 'python', 'java', 'go', 'csharp', 'php', 'ruby', 'perl'],
      keywords: ['ecb', 'mode_ecb', 'getinstance'],
      pattern:
        /\b(?:aes|des|des-ede3?|bf|blowfish|camellia|sm4)-?(?:128|192|256)?-ecb\b|\bMODE_ECB\b|\/ECB\/|\bCipherMode\.ECB\b|\bCipher\.getInstance\s*\(\s*"(?:AES|DES|DESede|Blowfish)"\s*[,)]|\bECB\b(?=[^\n]{0,40}(?:mode|cipher|crypt))|(?:mode|cipher|crypt)[^\n]{0,40}\bECB\b/i,
    },
  ],
};

const WEAK_CIPHER: HintRule = {
  id: 'crypto/weak-cipher',
  category: 'weak-crypto',
  severity: 'medium',
  description:
    'DES, 3DES, RC4, RC2, Blowfish and similar ciphers, or the deprecated key-derivation of crypto.createCipher.',
  message: 'Weak or deprecated cipher; use AES-GCM or ChaCha20-Poly1305 with a random nonce.',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      isStringScanned: false,
      keywords: ['createcipher', 'createdecipher'],
      pattern:
        /\bcreate(?:De)?cipher(?:iv)?\s*\(\s*["'](?:des|des-ede|des-ede3|des3|rc4|rc2|bf|blowfish|cast|idea|seed)(?:-[\w-]+)?["']|\bcreate(?:De)?cipher\s*\(/i,
    },
    {
      kind: 'code',
      languages: ['python'],
      isStringScanned: false,
      keywords: ['des.new', 'des3', 'arc4', 'arc2', 'blowfish', 'cast.new', 'algorithms'],
      pattern:
        /\b(?:DES|DES3|ARC4|ARC2|Blowfish|CAST)\.new\s*\(|\balgorithms\.(?:TripleDES|ARC4|Blowfish|CAST5|IDEA|SEED)\s*\(/,
    },
    {
      kind: 'code',
      languages: ['java'],
      isStringScanned: false,
      keywords: ['getinstance'],
      pattern: /\bCipher\.getInstance\s*\(\s*"(?:DES|DESede|TripleDES|RC4|RC2|ARCFOUR|Blowfish)\b/,
    },
    {
      kind: 'code',
      languages: ['go'],
      isStringScanned: false,
      keywords: ['des.new', 'rc4.new'],
      pattern: /\bdes\.New(?:TripleDES)?Cipher\s*\(|\brc4\.NewCipher\s*\(/,
    },
    {
      kind: 'code',
      languages: ['csharp'],
      isStringScanned: false,
      keywords: ['des.create', 'descryptoserviceprovider', 'tripledes', 'rc2'],
      pattern:
        /\b(?:DES|TripleDES|RC2)(?:CryptoServiceProvider)?\.Create\s*\(|\bnew\s+(?:DES|TripleDES|RC2)CryptoServiceProvider\s*\(/,
    },
    {
      kind: 'code',
      languages: ['php'],
      isStringScanned: false,
      keywords: ['openssl_encrypt', 'openssl_decrypt', 'mcrypt'],
      pattern:
        /\bopenssl_(?:en|de)crypt\s*\([^)]*["'](?:des|rc4|rc2|bf|blowfish|cast5|idea)(?:-[\w-]+)?["']|\bmcrypt_\w+\s*\(/i,
    },
    {
      kind: 'code',
      languages: ['ruby'],
      isStringScanned: false,
      keywords: ['openssl'],
      pattern: /\bOpenSSL::Cipher(?:::\w+)?\.new\s*\(\s*["'](?:des|rc4|rc2|bf|blowfish)/i,
    },
  ],
};

export const WEAK_CRYPTO_CATEGORY: CategoryRules = {
  category: 'weak-crypto',
  label: 'Weak cryptography or randomness',
  rules: [WEAK_HASH, INSECURE_RANDOM, ECB_MODE, WEAK_CIPHER],
  examples: readExamples(EXAMPLES, 'weak-crypto.examples.json'),
};
