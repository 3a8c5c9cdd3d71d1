import type { HintCategory } from '../../types.js';
import type { SinkKind } from './flow-value.js';

/** The sink kind a hint category's sinks have: which sanitisers make a value safe for them. */
export const CATEGORY_SINK_KINDS: Partial<Record<HintCategory, SinkKind>> = {
  'command-execution': 'shell',
  'dynamic-code': 'code',
  'sql-injection': 'sql',
  'path-traversal': 'path',
  ssrf: 'url',
  xss: 'html',
  'open-redirect': 'url',
  'nosql-injection': 'nosql',
  'template-injection': 'template',
  'ldap-injection': 'ldap',
  'xpath-injection': 'xpath',
  'trust-boundary': 'session',
  cors: 'header',
};
