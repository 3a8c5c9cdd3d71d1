import type { HintCategory } from '../types.js';

/** A human heading for each hint category; a Record so a new category cannot go unlabelled. */
export const HINT_CATEGORY_LABELS: Record<HintCategory, string> = {
  'command-execution': 'Command execution',
  'dynamic-code': 'Dynamic code evaluation',
  'sql-injection': 'SQL built from strings',
  'unsafe-deserialization': 'Unsafe deserialization',
  'path-traversal': 'Path traversal',
  ssrf: 'Server-side request forgery',
  xss: 'Cross-site scripting',
  'weak-crypto': 'Weak cryptography or randomness',
  'tls-verification': 'TLS verification disabled',
  cors: 'Permissive CORS',
  jwt: 'JWT verification',
  'open-redirect': 'Open redirect',
  'nosql-injection': 'NoSQL query built from request data',
  xxe: 'XML external entities',
  'template-injection': 'Server-side template injection',
  'ldap-injection': 'LDAP filter built from request data',
  'xpath-injection': 'XPath built from request data',
  'insecure-cookie': 'Cookies without Secure or HttpOnly',
  'trust-boundary': 'Request data stored in the session',
  'access-control': 'Access control and exposure',
  'hardcoded-credential': 'Hard-coded credentials',
  'secret-file': 'Secret-bearing files',
  'prompt-injection': 'Prompt-injection markers',
  'ci-workflow': 'CI workflow risks',
};

/** The label of a hint category, or the category itself for one this build does not know. */
export function labelHintCategory(category: string): string {
  return Object.hasOwn(HINT_CATEGORY_LABELS, category)
    ? HINT_CATEGORY_LABELS[category as HintCategory]
    : category;
}
