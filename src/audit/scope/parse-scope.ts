import { UsageError } from '../../shared/errors.js';
import { AUDIT_SCOPES, DEFAULT_AUDIT_SCOPE, type AuditScope } from './audit-scope.js';

/** `--scope <scope>`: the default when not given; a bad value is a usage error with its hint. */
export function parseScope(value: unknown): AuditScope {
  if (value === undefined) return DEFAULT_AUDIT_SCOPE;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : String(value);
  const scope = AUDIT_SCOPES.find((candidate) => candidate === text);
  if (scope !== undefined) return scope;
  throw new UsageError(
    `\`--scope\` must be one of ${AUDIT_SCOPES.join(', ')}, got \`${value === true ? '' : String(value)}\``,
    {
      hint: '`--scope shipping` (the default) sends the model the code that ships; `--scope all` also sends tests, fixtures, docs, translations and examples',
    },
  );
}
