import { defineTokenRule, isRandomToken } from '../define-token-rule.js';
import type { AnchoredRule } from '../redaction-rule.js';
import { shannonEntropy } from '../shannon-entropy.js';

// `sk-` is also a prefix of ordinary words and ids; a long run after it must look random.
const OPENAI_ENTROPY_FLOOR_BITS = 3.5;
const NAMED_OPENAI_KIND = /^sk-(?:proj|svcacct|admin)-/;
// Every OpenAI key carries `T3BlbkFJ` (base64 of "OpenAI") between two random halves of at least
// this length; a named kind without it (a stand-in run in its place) or with a stub half is made up.
const OPENAI_SIGNATURE = 'T3BlbkFJ';
const MIN_OPENAI_HALF_CHARS = 20;

/** Whether a key of a named kind (`sk-proj-`) carries the signature between two full halves. */
function isSignedOpenAiKey(value: string): boolean {
  const body = value.replace(NAMED_OPENAI_KIND, '').replace(/^sk-/, '');
  const at = body.indexOf(OPENAI_SIGNATURE);
  return (
    at >= MIN_OPENAI_HALF_CHARS &&
    body.length - at - OPENAI_SIGNATURE.length >= MIN_OPENAI_HALF_CHARS
  );
}

function hasLetterAndDigit(value: string): boolean {
  return /[A-Za-z]/.test(value) && /\d/.test(value);
}

export const SERVICE_TOKEN_RULES: readonly AnchoredRule[] = [
  defineTokenRule({
    id: 'slack-token',
    description: 'A Slack token (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-, xoxe-)',
    keywords: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-', 'xoxe-', 'xoxe.'],
    pattern: /xox(?:[abprs]|e(?:\.xox[bp])?)-[A-Za-z0-9-]{10,250}/y,
    isSecret: (value) => isRandomToken(value) && /\d/.test(value),
    takesGluedTail: true,
  }),
  defineTokenRule({
    id: 'slack-webhook-url',
    description: 'A Slack incoming-webhook URL (hooks.slack.com/services/...)',
    keywords: ['hooks.slack.com'],
    startsWord: false,
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/_-]{20,255}/y,
  }),
  defineTokenRule({
    id: 'stripe-live-key',
    description: 'A Stripe live secret or restricted key (sk_live_, rk_live_)',
    keywords: ['sk_live_', 'rk_live_'],
    pattern: /[sr]k_live_[A-Za-z0-9]{20,247}/y,
    takesGluedTail: true,
  }),
  defineTokenRule({
    id: 'anthropic-api-key',
    description: 'An Anthropic API key (sk-ant-)',
    keywords: ['sk-ant-'],
    pattern: /sk-ant-[A-Za-z0-9_-]{32,250}/y,
    takesGluedTail: true,
  }),
  defineTokenRule({
    id: 'openai-api-key',
    description:
      'An OpenAI API key (sk-proj-, sk-svcacct-, sk-admin-, or sk- and a long random run)',
    keywords: ['sk-'],
    // Any `sk-` run signed with `T3BlbkFJ` (`sk-service-account-name-...T3BlbkFJ...`) is OpenAI's.
    pattern:
      /sk-(?:[A-Za-z0-9_-]{1,250}T3BlbkFJ[A-Za-z0-9_-]{1,250}|(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,250}|[A-Za-z0-9]{32,250})/y,
    // A bare `sk-` run (other vendors use the prefix too) must hold a digit to be a key; a named
    // kind (`sk-proj-`) is OpenAI's alone and must be signed.
    isSecret: (value) =>
      isRandomToken(value) &&
      (NAMED_OPENAI_KIND.test(value) || value.includes(OPENAI_SIGNATURE)
        ? isSignedOpenAiKey(value)
        : hasLetterAndDigit(value)) &&
      shannonEntropy(value) >= OPENAI_ENTROPY_FLOOR_BITS,
    takesGluedTail: true,
  }),
  defineTokenRule({
    id: 'sendgrid-api-key',
    description: 'A SendGrid API key (SG.xxx.yyy, or SG. and 66 characters)',
    keywords: ['sg.'],
    pattern: /SG\.(?:[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}|[A-Za-z0-9=_.-]{66})/y,
    takesGluedTail: true,
  }),
  defineTokenRule({
    id: 'mailgun-api-key',
    description: 'A Mailgun API key (key- + 32 hex)',
    keywords: ['key-'],
    // Glued on either side (`Xkey-...`, `key-...X`): 32 hex characters with letters and digits after
    // `key-` are a key wherever they stand, even after `monkey-`.
    pattern: /key-[0-9a-f]{32}/y,
    isSecret: (value) => isRandomToken(value) && hasLetterAndDigit(value.slice(4)),
    takesGluedTail: true,
  }),
];
