import { defineContextRule } from '../define-context-rule.js';
import { isRandomToken } from '../define-token-rule.js';
import type { WindowRule } from '../redaction-rule.js';

// Twilio clients are usually built within a few lines of the word (import, env names, constructor).
const TWILIO_CONTEXT_LINES = 5;

export const TWILIO_RULE: WindowRule = defineContextRule({
  id: 'twilio-key',
  description: 'A Twilio API key SID (SK...) or account SID (AC...) near the word "twilio"',
  keywords: ['twilio'],
  contextLines: TWILIO_CONTEXT_LINES,
  // No boundary either side: a character glued to the SID (`XSK...`, `SK...X`) must not hide it.
  pattern: /(?:SK|AC)[0-9a-fA-F]{32}/g,
  isSecret: (value) => isRandomToken(value.slice(2)) && /[a-fA-F]/.test(value.slice(2)),
});
