import type { CategoryInfo, HintRuleInfo } from './hint-rule.js';

/** Hints the orchestrator builds from the redactor's results (one per redacted secret). */
export const HARDCODED_CREDENTIAL_RULE: HintRuleInfo = {
  id: 'secret/hardcoded-credential',
  category: 'hardcoded-credential',
  severity: 'high',
  description:
    'A credential written into a tracked file (found by the redactor; the value is never reported).',
  languages: ['any'],
};

/** Hints the orchestrator builds from the collector (one per secret-bearing file git tracks). */
export const COMMITTED_SECRET_FILE_RULE: HintRuleInfo = {
  id: 'secret/committed-secret-file',
  category: 'secret-file',
  severity: 'high',
  description:
    'A secret-bearing file (.env, private key, credentials file) committed to the repository; it is never read.',
  languages: ['any'],
};

/** The category of committed secret-bearing files (no line rules: the collector finds them). */
export const COMMITTED_SECRET_FILE_CATEGORY: CategoryInfo = {
  category: 'secret-file',
  label: 'Secret-bearing files',
};
