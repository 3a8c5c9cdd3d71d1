import { Buffer } from 'node:buffer';
import { defineTokenRule } from '../define-token-rule.js';
import type { AnchoredRule } from '../redaction-rule.js';

// Longest header or payload segment considered (large claims sets stay well under this).
const MAX_SEGMENT_CHARS = 8192;

// Claims of the tokens documentation and tests copy from jwt.io and RFC 7519 (an `example.com`
// address elsewhere in the claims is a test account's, and its token still signs requests).
const EXAMPLE_CLAIMS =
  /"sub":\s*"1234567890"|"name":\s*"John Doe"|"iss":\s*"joe"|"http:\/\/example\.com\/is_root"/;

/** Whether a token is a real JWT: a JOSE header naming its algorithm, and not a well-known example. */
function isRealJwt(token: string): boolean {
  const [header = '', payload = ''] = token.split('.');
  if (!decodeSegment(header).includes('"alg"')) return false;
  return !EXAMPLE_CLAIMS.test(decodeSegment(payload));
}

function decodeSegment(segment: string): string {
  return Buffer.from(segment, 'base64url').toString('utf8');
}

export const JWT_RULE: AnchoredRule = defineTokenRule({
  id: 'jwt',
  description: 'A JSON Web Token (three base64url parts, eyJ...)',
  keywords: ['eyj'],
  pattern: new RegExp(
    String.raw`eyJ[A-Za-z0-9_-]{8,${MAX_SEGMENT_CHARS}}\.eyJ[A-Za-z0-9_-]{8,${MAX_SEGMENT_CHARS}}\.[A-Za-z0-9_-]{0,${MAX_SEGMENT_CHARS}}`,
    'y',
  ),
  isSecret: isRealJwt,
});
