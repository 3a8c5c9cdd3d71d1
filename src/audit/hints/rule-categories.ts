import type { HintCategory } from '../types.js';
import type { CategoryInfo, CategoryRules } from './hint-rule.js';
import { ACCESS_CONTROL_CATEGORY } from './rules/access-control.js';
import { COMMAND_EXECUTION_CATEGORY } from './rules/command-execution.js';
import { CORS_CATEGORY } from './rules/cors.js';
import { DYNAMIC_CODE_CATEGORY } from './rules/dynamic-code.js';
import { HARDCODED_CREDENTIAL_CATEGORY } from './rules/hardcoded-credential.js';
import { INSECURE_COOKIE_CATEGORY } from './rules/insecure-cookie.js';
import { JWT_CATEGORY } from './rules/jwt.js';
import { LDAP_INJECTION_CATEGORY } from './rules/ldap-injection.js';
import { NOSQL_INJECTION_CATEGORY } from './rules/nosql-injection.js';
import { OPEN_REDIRECT_CATEGORY } from './rules/open-redirect.js';
import { PATH_TRAVERSAL_CATEGORY } from './rules/path-traversal.js';
import { PROMPT_INJECTION_CATEGORY } from './rules/prompt-injection.js';
import { SQL_INJECTION_CATEGORY } from './rules/sql-injection.js';
import { SSRF_CATEGORY } from './rules/ssrf.js';
import { TEMPLATE_INJECTION_CATEGORY } from './rules/template-injection.js';
import { TLS_VERIFICATION_CATEGORY } from './rules/tls-verification.js';
import { TRUST_BOUNDARY_CATEGORY } from './rules/trust-boundary.js';
import { UNSAFE_DESERIALIZATION_CATEGORY } from './rules/unsafe-deserialization.js';
import { WEAK_CRYPTO_CATEGORY } from './rules/weak-crypto.js';
import { XPATH_INJECTION_CATEGORY } from './rules/xpath-injection.js';
import { XSS_CATEGORY } from './rules/xss.js';
import { XXE_CATEGORY } from './rules/xxe.js';
import { COMMITTED_SECRET_FILE_CATEGORY } from './secret-rules.js';
import { CI_WORKFLOW_CATEGORY } from './scanners/workflow-risks.js';

/** Every rule file, one per category (named like its folder of test/fixtures/hint-corpus/). */
export const RULE_CATEGORIES: readonly CategoryRules[] = [
  COMMAND_EXECUTION_CATEGORY,
  DYNAMIC_CODE_CATEGORY,
  SQL_INJECTION_CATEGORY,
  UNSAFE_DESERIALIZATION_CATEGORY,
  PATH_TRAVERSAL_CATEGORY,
  SSRF_CATEGORY,
  XSS_CATEGORY,
  WEAK_CRYPTO_CATEGORY,
  TLS_VERIFICATION_CATEGORY,
  CORS_CATEGORY,
  JWT_CATEGORY,
  OPEN_REDIRECT_CATEGORY,
  NOSQL_INJECTION_CATEGORY,
  XXE_CATEGORY,
  TEMPLATE_INJECTION_CATEGORY,
  LDAP_INJECTION_CATEGORY,
  XPATH_INJECTION_CATEGORY,
  INSECURE_COOKIE_CATEGORY,
  TRUST_BOUNDARY_CATEGORY,
  ACCESS_CONTROL_CATEGORY,
  HARDCODED_CREDENTIAL_CATEGORY,
  PROMPT_INJECTION_CATEGORY,
];

const byCategory = new Map<HintCategory, CategoryInfo>(
  [...RULE_CATEGORIES, COMMITTED_SECRET_FILE_CATEGORY, CI_WORKFLOW_CATEGORY].map((info) => [
    info.category,
    info,
  ]),
);

/** A category's info; a Record keyed by every category, so none can go without a label. */
export const HINT_CATEGORIES = Object.fromEntries(byCategory) as Readonly<
  Record<HintCategory, CategoryInfo>
>;
