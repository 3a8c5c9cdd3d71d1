import type { HintRule } from './hint-rule.js';
import { ACCESS_CONTROL_RULES } from './rules/access-control.js';
import { COMMAND_EXECUTION_RULES } from './rules/command-execution.js';
import { CORS_RULES } from './rules/cors.js';
import { DYNAMIC_CODE_RULES } from './rules/dynamic-code.js';
import { HARDCODED_SECRET_RULES } from './rules/hardcoded-secrets.js';
import { INSTRUCTION_PHRASE_RULES } from './rules/instruction-phrases.js';
import { JWT_RULES } from './rules/jwt.js';
import { PATH_TRAVERSAL_RULES } from './rules/path-traversal.js';
import { REQUEST_SINK_RULES } from './rules/request-sinks.js';
import { SQL_INJECTION_RULES } from './rules/sql-injection.js';
import { SSRF_RULES } from './rules/ssrf.js';
import { TLS_VERIFICATION_RULES } from './rules/tls-verification.js';
import { UNSAFE_DESERIALIZATION_RULES } from './rules/unsafe-deserialization.js';
import { WEAK_CRYPTO_RULES } from './rules/weak-crypto.js';
import { XSS_RULES } from './rules/xss.js';

/** Every keyword-triggered rule, by family. */
export const LINE_RULES: readonly HintRule[] = [
  ...COMMAND_EXECUTION_RULES,
  ...DYNAMIC_CODE_RULES,
  ...SQL_INJECTION_RULES,
  ...UNSAFE_DESERIALIZATION_RULES,
  ...PATH_TRAVERSAL_RULES,
  ...SSRF_RULES,
  ...XSS_RULES,
  ...WEAK_CRYPTO_RULES,
  ...TLS_VERIFICATION_RULES,
  ...CORS_RULES,
  ...JWT_RULES,
  ...REQUEST_SINK_RULES,
  ...ACCESS_CONTROL_RULES,
  ...HARDCODED_SECRET_RULES,
  ...INSTRUCTION_PHRASE_RULES,
];
