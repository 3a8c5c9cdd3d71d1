import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './jwt.examples.json' with { type: 'json' };

const NONE_ALGORITHM: HintRule = {
  id: 'jwt/none-algorithm',
  category: 'jwt',
  severity: 'high',
  description: 'The JWT `none` algorithm accepted or produced.',
  message:
    'JWT `none` algorithm allowed: tokens without a signature would be accepted; pin the expected signing algorithms.',
  matchers: [
    {
      kind: 'code',
      languages: ['any'],
      keywords: ['alg', 'signingmethodnone', 'unsafeallownonesignaturetype'],
      pattern:
        /\balg(?:orithm)?s?["']?\s*[:=]\s*\[?\s*(?:["'][\w-]+["']\s*,\s*)*["']none["']|\bAlgorithm\.none\s*\(|\bSigningMethodNone\b|\bUnsafeAllowNoneSignatureType\b/i,
      near: { before: 5, after: 5, requires: /jwt|jws|jose|token|sign|verify|claims/i },
    },
  ],
};

const VERIFICATION_DISABLED: HintRule = {
  id: 'jwt/verification-disabled',
  category: 'jwt',
  severity: 'high',
  description: 'A JWT decoded with signature (or lifetime) verification explicitly turned off.',
  message:
    'JWT signature verification is turned off here; verify the claims are never trusted for authentication or authorisation.',
  matchers: [
    {
      kind: 'code',
      languages: ['python'],
      keywords: ['verify_signature', 'verify'],
      pattern: /["']verify_signature["']\s*:\s*False\b|\bverify\s*=\s*False\b/,
      near: { before: 3, after: 0, requires: /\bjwt\b|\bjws\b|verify_signature/i },
    },
    {
      kind: 'code',
      languages: ['ruby'],
      keywords: ['jwt'],
      pattern: /\bJWT\.decode\s*\(\s*[^,]+,\s*[^,]+,\s*false\b/,
    },
    {
      kind: 'code',
      languages: ['go'],
      keywords: ['parseunverified'],
      pattern: /\.ParseUnverified\s*\(/,
    },
    {
      kind: 'code',
      languages: ['csharp'],
      keywords: [
        'requiresignedtokens',
        'validateissuersigningkey',
        'validatelifetime',
        'requireexpirationtime',
        'signaturevalidator',
      ],
      pattern:
        /\b(?:RequireSignedTokens|ValidateIssuerSigningKey|ValidateLifetime|RequireExpirationTime)\s*=\s*false\b|\bSignatureValidator\s*=/,
    },
  ],
};

// Code that runs in a browser: decoding a token there only reads it, the server still verifies it.
const BROWSER_CODE =
  /@angular\/core|\bfrom\s+['"](?:react|vue|svelte)['"]|\blocalStorage\b|\bsessionStorage\b|\bwindow\.|\bdocument\./;
const JS_DECODE =
  /\bjwt\.decode\s*\(|(?<![\w$.])jwtDecode\s*\(|\bjose\.decodeJwt\s*\(|(?<![\w$.])decodeJwt\s*\(/;
// The decoded claims decide who may do what.
const AUTH_DECISION =
  /\brole\b|\broles\b|\badmin\b|isAdmin|permission|\bscope\b|authori[sz]|req\.user\s*=|\bnext\s*\(\s*\)/i;

const DECODE_WITHOUT_VERIFY: HintRule = {
  id: 'jwt/decode-without-verify',
  category: 'jwt',
  severity: 'medium',
  description:
    'A JWT decoded without verification on a server, in a file that never verifies one or where the claims decide access.',
  message:
    'JWT decoded without checking its signature; verify the claims are not trusted for authentication or authorisation (use verify with pinned algorithms).',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      keywords: ['jwt', 'jose', 'decodejwt'],
      pattern: JS_DECODE,
      fileForbids:
        /\.verify\s*\(|\bjwtVerify\s*\(|@angular\/core|\bfrom\s+['"](?:react|vue|svelte)['"]|\blocalStorage\b|\bsessionStorage\b|\bwindow\.|\bdocument\./,
    },
    {
      kind: 'code',
      languages: ['js'],
      keywords: ['jwt', 'jose', 'decodejwt'],
      pattern: JS_DECODE,
      near: { before: 0, after: 3, requires: AUTH_DECISION },
      fileForbids: BROWSER_CODE,
    },
    {
      kind: 'code',
      languages: ['java'],
      keywords: ['jwt'],
      pattern: /\bJWT\.decode\s*\(/,
      fileForbids: /\bJWT\.require\s*\(|\.verify\s*\(/,
    },
  ],
};

const UNPINNED_ALGORITHM: HintRule = {
  id: 'jwt/unpinned-algorithm',
  category: 'jwt',
  severity: 'medium',
  description:
    'A JWT verified without pinning its algorithms (jsonwebtoken, express-jwt, PyJWT, firebase/php-jwt), parsed with jjwt `parse` (which accepts unsigned tokens), or with a golang-jwt key function that never checks the method.',
  message:
    'The token itself chooses how it is verified (`alg`), which allows algorithm confusion or `none`; pin the expected algorithms.',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      keywords: ['jwt.verify', 'jsonwebtoken'],
      pattern: /\bjwt\.verify\s*\(/,
      unless: /\balgorithms\s*:/,
      near: { before: 8, after: 0, forbids: /\balgorithms\s*:/ },
    },
    {
      kind: 'code',
      languages: ['js'],
      keywords: ['expressjwt', 'express-jwt', 'jwt('],
      pattern: /\bexpress[jJ]wt\s*\(\s*\{|(?<![\w$.])jwt\s*\(\s*\{\s*secret\b/,
      unless: /\balgorithms\s*:/,
    },
    {
      kind: 'code',
      languages: ['python'],
      keywords: ['jwt.decode'],
      pattern: /\bjwt\.decode\s*\(/,
      unless: /\balgorithms\s*=|verify_signature|\bverify\s*=\s*False/,
    },
    {
      kind: 'code',
      languages: ['java'],
      keywords: ['jwts'],
      pattern: /\bJwts\.parser(?:Builder)?\s*\(\s*\)[^;]*?\.parse\s*\(/,
    },
    {
      kind: 'code',
      languages: ['go'],
      keywords: ['jwt.parse'],
      pattern: /\bjwt\.Parse(?:WithClaims)?\s*\(/,
      unless: /WithValidMethods/,
      near: { before: 0, after: 6, forbids: /\.Method\b|WithValidMethods/ },
    },
    {
      kind: 'code',
      languages: ['php'],
      keywords: ['jwt::decode'],
      pattern: /\bJWT::decode\s*\(\s*[^,()]+,\s*[^,()]+\)/,
    },
  ],
};

export const JWT_CATEGORY: CategoryRules = {
  category: 'jwt',
  label: 'JWT verification',
  rules: [NONE_ALGORITHM, VERIFICATION_DISABLED, DECODE_WITHOUT_VERIFY, UNPINNED_ALGORITHM],
  examples: readExamples(EXAMPLES, 'jwt.examples.json'),
};
