import type { HintRule } from '../hint-rule.js';

const NONE_ALGORITHM: HintRule = {
  id: 'jwt/none-algorithm',
  category: 'jwt',
  severity: 'high',
  description: 'The JWT `none` algorithm accepted or produced.',
  message:
    'JWT `none` algorithm allowed: tokens without a signature would be accepted; pin the expected signing algorithms.',
  matchers: [
    {
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
      languages: ['python'],
      keywords: ['verify_signature', 'verify'],
      pattern: /["']verify_signature["']\s*:\s*False\b|\bverify\s*=\s*False\b/,
      near: { before: 3, after: 0, requires: /\bjwt\b|\bjws\b|verify_signature/i },
    },
    {
      languages: ['ruby'],
      keywords: ['jwt'],
      pattern: /\bJWT\.decode\s*\(\s*[^,]+,\s*[^,]+,\s*false\b/,
    },
    {
      languages: ['go'],
      keywords: ['parseunverified'],
      pattern: /\.ParseUnverified\s*\(/,
    },
    {
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

const DECODE_WITHOUT_VERIFY: HintRule = {
  id: 'jwt/decode-without-verify',
  category: 'jwt',
  severity: 'medium',
  description: 'A JWT decoded without verification in a file that never verifies one.',
  message:
    'JWT decoded without checking its signature, and this file never verifies one; verify the claims are not trusted for authentication.',
  matchers: [
    {
      languages: ['js'],
      keywords: ['jwt', 'jose', 'decodejwt'],
      pattern:
        /\bjwt\.decode\s*\(|(?<![\w$.])jwtDecode\s*\(|\bjose\.decodeJwt\s*\(|(?<![\w$.])decodeJwt\s*\(/,
      fileForbids: /\.verify\s*\(|\bjwtVerify\s*\(/,
    },
    {
      languages: ['java'],
      keywords: ['jwt'],
      pattern: /\bJWT\.decode\s*\(/,
      fileForbids: /\bJWT\.require\s*\(|\.verify\s*\(/,
    },
  ],
};

export const JWT_RULES: readonly HintRule[] = [
  NONE_ALGORITHM,
  VERIFICATION_DISABLED,
  DECODE_WITHOUT_VERIFY,
];
