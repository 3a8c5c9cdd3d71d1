import { defineTokenRule } from '../define-token-rule.js';
import type { AnchoredRule } from '../redaction-rule.js';

export const CODE_HOST_RULES: readonly AnchoredRule[] = [
  defineTokenRule({
    id: 'github-token',
    description: 'A GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    pattern: /gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{50,251}/y,
  }),
  defineTokenRule({
    id: 'gitlab-token',
    description: 'A GitLab token (glpat-, gldt-, glrt-, glptt-, glcbt-, glsoat-)',
    keywords: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glcbt-', 'glsoat-'],
    pattern: /gl(?:pat|dt|rt|ptt|cbt|soat)-[A-Za-z0-9_-]{20,255}(?:\.[A-Za-z0-9_-]{1,255}){0,4}/y,
  }),
  defineTokenRule({
    id: 'npm-token',
    description: 'An npm access token (npm_ + 36)',
    keywords: ['npm_'],
    pattern: /npm_[A-Za-z0-9]{36}/y,
  }),
  defineTokenRule({
    id: 'pypi-token',
    description: 'A PyPI or TestPyPI API token (pypi-AgEIcHlwaS5vcmc...)',
    keywords: ['pypi-ageichlwas5vcmc', 'pypi-agendgvzdc5wexbplm9yzw'],
    pattern: /pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,1000}/y,
  }),
];
