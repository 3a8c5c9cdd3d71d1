import { compileRuleSet, type CompiledRuleSet } from './compile-rule-set.js';
import type { RedactionRule, RedactionRuleInfo } from './redaction-rule.js';
import { CLOUD_PROVIDER_RULES } from './rules/cloud-provider-rules.js';
import { CODE_HOST_RULES } from './rules/code-host-rules.js';
import { GENERIC_ASSIGNMENT_RULE } from './rules/generic-assignment-rule.js';
import { JWT_RULE } from './rules/jwt-rule.js';
import { PRIVATE_KEY_RULES } from './rules/private-key-rules.js';
import { SERVICE_TOKEN_RULES } from './rules/service-token-rules.js';
import { TELEGRAM_BOT_TOKEN_RULE } from './rules/telegram-bot-token-rule.js';
import { TWILIO_RULE } from './rules/twilio-rule.js';
import { COMMAND_LINE_CREDENTIAL_RULE } from './rules/command-line-credential-rule.js';
import { BASE64_SECRET_RULE } from './rules/base64-secret-rule.js';
import { CSV_CREDENTIAL_COLUMN_RULE } from './rules/csv-credential-column-rule.js';
import { CURL_USER_RULE } from './rules/curl-user-rule.js';
import { GIT_CREDENTIALS_RULE } from './rules/git-credentials-rule.js';
import { KUBECONFIG_RULE } from './rules/kubeconfig-rule.js';
import { KUBERNETES_SECRET_RULE } from './rules/kubernetes-secret-rule.js';
import { MYSQL_OPTION_FILE_RULE } from './rules/mysql-option-file-rule.js';
import { NETRC_RULE } from './rules/netrc-rule.js';
import { PASSWORD_HASH_RULE } from './rules/password-hash-rule.js';
import { PGPASS_RULE } from './rules/pgpass-rule.js';
import { PUTTY_KEY_RULE } from './rules/putty-key-rule.js';
import { URL_CREDENTIAL_RULE } from './rules/url-credential-rule.js';
import { VENDOR_CONTEXT_RULES } from './rules/vendor-context-rules.js';
import {
  AUTHRESS_KEY_RULE,
  BASE64_JWT_RULE,
  FACEBOOK_APP_TOKEN_RULE,
  INNER_KEYWORD_TOKEN_RULES,
  JENKINS_CREDENTIAL_RULE,
  NPMRC_AUTH_TOKEN_RULE,
  VENDOR_TOKEN_RULES,
} from './rules/vendor-token-rules.js';

/** Every rule, most specific first: on a tie the earlier rule names the secret. */
export const REDACTION_RULE_SET: readonly RedactionRule[] = [
  ...PRIVATE_KEY_RULES,
  PUTTY_KEY_RULE,
  BASE64_SECRET_RULE,
  // Vendor formats anchor on their host or prefix, so they name a value before the bare `sig=` of Azure SAS.
  ...VENDOR_TOKEN_RULES,
  ...CLOUD_PROVIDER_RULES,
  ...CODE_HOST_RULES,
  ...SERVICE_TOKEN_RULES,
  ...INNER_KEYWORD_TOKEN_RULES,
  AUTHRESS_KEY_RULE,
  NPMRC_AUTH_TOKEN_RULE,
  JENKINS_CREDENTIAL_RULE,
  TWILIO_RULE,
  TELEGRAM_BOT_TOKEN_RULE,
  FACEBOOK_APP_TOKEN_RULE,
  JWT_RULE,
  BASE64_JWT_RULE,
  // Before the URL rule: a URL alone on its line is a credential store's entry, judged as one.
  GIT_CREDENTIALS_RULE,
  URL_CREDENTIAL_RULE,
  CURL_USER_RULE,
  COMMAND_LINE_CREDENTIAL_RULE,
  // Credential-file lines, by their shape wherever they are.
  NETRC_RULE,
  PGPASS_RULE,
  MYSQL_OPTION_FILE_RULE,
  KUBERNETES_SECRET_RULE,
  KUBECONFIG_RULE,
  PASSWORD_HASH_RULE,
  // Before the generic rule, so a value found by both is named for its vendor.
  ...VENDOR_CONTEXT_RULES,
  GENERIC_ASSIGNMENT_RULE,
  // After the generic rule: a cell the generic rule names (`token,ghp_…`) keeps its name.
  CSV_CREDENTIAL_COLUMN_RULE,
];

/** What each rule is, for reports and docs. */
export const REDACTION_RULES: readonly RedactionRuleInfo[] = REDACTION_RULE_SET.map(
  ({ id, description, keywords, severity }) => ({
    id,
    description,
    keywords,
    ...(severity && { severity }),
  }),
);

const LOW_SEVERITY_RULES = new Set(
  REDACTION_RULE_SET.filter((rule) => rule.severity === 'low').map((rule) => rule.id),
);

/** Whether secrets a rule finds rank low wherever they are (a password hash is not a credential). */
export function isLowSeverityRule(ruleId: string): boolean {
  return LOW_SEVERITY_RULES.has(ruleId);
}

// Compiled once, so that making a Redactor costs nothing.
export const DEFAULT_RULE_SET: CompiledRuleSet = compileRuleSet(REDACTION_RULE_SET);
