import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './prompt-injection.examples.json' with { type: 'json' };

/** Text that tries to override a model's instructions. */
export const OVERRIDE_INSTRUCTIONS =
  /\b(?:ignore|disregard|forget)\s+(?:(?:all|any|the|your|of|my|these|those)\s+)*(?:previous|prior|above|preceding|earlier|former|foregoing|original|system|initial|existing)\s+(?:instructions?|directives?|prompts?|rules|guidelines|guidance|context|commands?)\b|\bdisregard\s+(?:\w+\s+){0,3}?instructions?\b|\bignore\s+(?:all\s+)?(?:your|the)\s+instructions\b/i;
/** Text that asks a reviewer to stay silent about problems. */
export const SUPPRESS_FINDINGS =
  /\b(?:do\s+not|don['\u2019]?t|never|must\s+not|should\s+not|shouldn['\u2019]?t)\s+(?:report|flag|mention)\s+(?:(?:this|these|that|those|any|the|such|a|an)\s+)?(?:(?:security|potential|known)\s+)?(?:issues?|findings?|vulnerabilit(?:y|ies)|problems?|bugs?|code|file|function|line|warnings?)\b|\b(?:do\s+not|don['\u2019]?t|never)\s+(?:report|flag|mention)\s+(?:this|these|anything)\s*(?:[.!;:]|$)|\breport\s+(?:no|zero)\s+(?:(?:security|other)\s+)?(?:issues|findings|vulnerabilities|problems|bugs)\b|\b(?:this|the)\s+(?:code|file|function|module)\s+(?:is|has\s+been)\s+(?:already\s+)?(?:verified|audited|reviewed)\s+(?:as\s+|to\s+be\s+)?(?:safe|secure)\b/i;
/**
 * Text addressed to the model reviewing the code (not an app's own chatbot copy): a greeting or note
 * to an AI reviewer, auditor or scanner, a jailbreak "you are now ... mode", or an order about the
 * system prompt. "As an AI", "system prompt" and "AI assistant" alone are normal in chatbot code.
 */
export const ADDRESSED_TO_AI =
  /\byou\s+are\s+now\s+(?:an?\s+|the\s+|in\s+)?(?:[\w-]+\s+){0,3}?(?:reviewer|auditor|scanner|unrestricted|jailbroken|(?:developer|god|dan|jailbreak|unrestricted|admin)\s+mode)\b|\b(?:dear|hey|hi|hello|attention|note\s+(?:to|for)(?:\s+the)?|message\s+(?:to|for)(?:\s+the)?|instructions?\s+for(?:\s+the)?|to\s+the)\s+(?:ai|llm|gpt|chatgpt|claude|gemini|copilot|language\s+model)\s+(?:code\s+|security\s+)?(?:reviewers?|auditors?|scanners?|analy[sz]ers?|agents?)\b|\b(?:ai|llm)\s+(?:code\s+|security\s+)?(?:reviewers?|auditors?|scanners?)\s*[:,]|\b(?:ignore|override|disregard|reveal|print|replace|forget)\s+(?:your\s+|the\s+)?system\s+prompt\b|\bas\s+an\s+ai\s+(?:code\s+|security\s+)?(?:reviewer|auditor|scanner)\b|\bas\s+an\s+ai(?:\s+(?:language\s+)?model)?\s*,\s*you\b/i;

const OVERRIDE_RULE: HintRule = {
  id: 'prompt-injection/override-instructions',
  category: 'prompt-injection',
  severity: 'high',
  description: 'Text telling a model to ignore or disregard its previous instructions.',
  message:
    "Text tries to override a reviewer model's instructions; treat this file as hostile input and review it by hand.",
  matchers: [
    {
      kind: 'text',
      languages: ['any'],
      keywords: ['ignore', 'disregard', 'forget'],
      pattern: OVERRIDE_INSTRUCTIONS,
    },
  ],
};

const SUPPRESS_RULE: HintRule = {
  id: 'prompt-injection/suppress-findings',
  category: 'prompt-injection',
  severity: 'high',
  description: 'Text asking a reviewer not to report issues, or to report none.',
  message:
    'Text asks the reviewer not to report problems; treat it as an attempt to hide something and review this place by hand.',
  matchers: [
    {
      kind: 'text',
      languages: ['any'],
      // Verb phrases rather than the bare verbs, which are everywhere in code (`report`, `flag`).
      keywords: [
        ...['report', 'flag', 'mention'].flatMap((verb) =>
          ['not', "don't", 'don\u2019t', 'dont', "shouldn't", 'never'].map(
            (negation) => `${negation} ${verb}`,
          ),
        ),
        'report no',
        'report zero',
        'verified',
        'audited',
        'reviewed',
      ],
      pattern: SUPPRESS_FINDINGS,
      // Security policies ask people not to report vulnerabilities in public issues: not a model instruction.
      unless:
        /\b(?:via|through|on|in|using|to|as)\s+(?:a\s+|our\s+|the\s+)?(?:public\s+)?(?:github\s+)?(?:issues?|issue\s+tracker|bug\s+tracker|pull\s+requests?)\b|\bpublic(?:ly)?\b/i,
    },
  ],
};

const ADDRESSED_RULE: HintRule = {
  id: 'prompt-injection/addressed-to-ai',
  category: 'prompt-injection',
  severity: 'medium',
  description:
    'Text addressed to the AI reviewing the code ("note to the AI reviewer", "you are now in developer mode", "ignore your system prompt").',
  message: 'Text addresses an AI model directly; check whether it tries to steer the review.',
  matchers: [
    {
      kind: 'text',
      languages: ['any'],
      keywords: [
        'you are now',
        'as an ai',
        'system prompt',
        'ai',
        'llm',
        'gpt',
        'chatgpt',
        'claude',
        'gemini',
        'copilot',
        'language model',
      ],
      pattern: ADDRESSED_TO_AI,
    },
  ],
};

// javac turns `\u000a` into a line break before it reads comments and strings, so
// `// \u000a Runtime.getRuntime().exec(cmd);` runs while it reads as a comment.
const JAVA_UNICODE_ESCAPE_RULE: HintRule = {
  id: 'prompt-injection/java-unicode-escape',
  category: 'prompt-injection',
  severity: 'high',
  description:
    'A Java unicode escape of a line break, a quote, `*` or `/` (the last two outside strings): javac decodes it before comments and strings, so code can run while it reads as a comment or a string.',
  message:
    'This unicode escape is decoded before the compiler reads comments and strings, so what follows may run though it reads as a comment or text; write the character itself.',
  matchers: [
    {
      kind: 'text',
      // A line break anywhere; a quote outside a character literal (`'\u0022'` is one).
      languages: ['java'],
      keywords: ['\\u'],
      isKeywordInsideWords: true,
      pattern: /\\u+000[aAdD]|(?<!')\\u+0022/,
    },
    {
      kind: 'text',
      // `*` and `/` end or open comments; inside a string literal they are text (charset tables).
      languages: ['java'],
      keywords: ['\\u'],
      isKeywordInsideWords: true,
      pattern: /\\u+002[aAfF]/,
      isStringScanned: false,
    },
  ],
};

export const PROMPT_INJECTION_CATEGORY: CategoryRules = {
  category: 'prompt-injection',
  label: 'Prompt-injection markers',
  rules: [OVERRIDE_RULE, SUPPRESS_RULE, ADDRESSED_RULE, JAVA_UNICODE_ESCAPE_RULE],
  examples: readExamples(EXAMPLES, 'prompt-injection.examples.json'),
};
