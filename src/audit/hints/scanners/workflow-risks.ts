import type { FileContext } from '../file-context.js';
import type { HintCollector } from '../hint-collector.js';
import type { CategoryInfo, HintRuleInfo } from '../hint-rule.js';
import type { FileScanner } from './file-scanner.js';

/** The category of CI workflow risks (read by this scanner, not by line rules). */
export const CI_WORKFLOW_CATEGORY: CategoryInfo = {
  category: 'ci-workflow',
  label: 'CI workflow risks',
};

const PR_TARGET_CHECKOUT: HintRuleInfo = {
  id: 'ci/pull-request-target-checkout',
  category: 'ci-workflow',
  severity: 'critical',
  description:
    'A pull_request_target (or workflow_run) workflow that checks out the pull request head, running untrusted code with a write token and secrets.',
  languages: ['workflow'],
};

const UNTRUSTED_INPUT_IN_RUN: HintRuleInfo = {
  id: 'ci/untrusted-input-in-run',
  category: 'ci-workflow',
  severity: 'high',
  description:
    'A ${{ github.event.* }} or ${{ github.head_ref }} expression inside a run: (or github-script) block, where it is pasted into the script before it runs (low for fields that are not free text).',
  languages: ['workflow'],
};

const PRIVILEGED_TRIGGER = /^[^#\n]*\b(pull_request_target|workflow_run)\b/m;
const HEAD_CHECKOUT =
  /\bgithub\.event\.pull_request\.head\.(?:sha|ref|repo\.full_name)\b|\bgithub\.head_ref\b|\brefs\/pull\/|\bpull\/\$\{\{[^}]*\}\}\/(?:head|merge)\b|\bgh\s+pr\s+checkout\b|\bgithub\.event\.workflow_run\.head_(?:sha|branch)\b/;
// A line that checks out or fetches code: `ref:`/`repository:` of a checkout step, or a git/gh command.
const CHECKOUT_LINE =
  /^\s*(?:-\s+)?(?:ref|repository)\s*:|\bgit\s+(?:fetch|checkout|pull)\b|\bgh\s+pr\s+checkout\b/;
const SCRIPT_KEY = /^(\s*)(-\s+)?(run|script)\s*:\s?(.*)$/;
const BLOCK_SCALAR = /^[|>][-+0-9]*\s*(?:#.*)?$/;
const EXPRESSION = /\$\{\{([^}]*)\}\}/g;
// Event fields an outside contributor can fill with arbitrary text.
const FREE_TEXT_FIELD =
  /\bgithub\.head_ref\b|\bgithub\.event\.(?:issue\.(?:title|body)|pull_request\.(?:title|body|head\.ref|head\.label|head\.repo\.default_branch)|comment\.body|review\.body|review_comment\.body|pages\.[^\s]*page_name|commits\b[^\s]*\.(?:message|author\.(?:email|name))|head_commit\.(?:message|author\.(?:email|name))|discussion\.(?:title|body)|workflow_run\.(?:head_branch|display_title|head_commit\.(?:message|author\.(?:email|name)))|client_payload\b|inputs\b)|\bgithub\.event\s*\)/;
const EVENT_FIELD = /\bgithub\.(?:event\b|head_ref\b)/;
const MAX_QUOTED_EXPRESSION_CHARS = 80;

/** GitHub Actions risks: privileged triggers that check out the pull request, and script injection through event fields. */
export const WORKFLOW_RISK_SCANNER: FileScanner = {
  rules: [PR_TARGET_CHECKOUT, UNTRUSTED_INPUT_IN_RUN],
  languages: ['workflow'],
  scan(file, collector) {
    const trigger = PRIVILEGED_TRIGGER.exec(file.text)?.[1];
    const lineCount = file.lines.lineCount;
    let blockIndent = -1;
    for (let line = 1; line <= lineCount; line += 1) {
      const text = file.lines.textOf(line);
      if (
        trigger !== undefined &&
        !isComment(text) &&
        CHECKOUT_LINE.test(text) &&
        HEAD_CHECKOUT.test(text)
      ) {
        const message = `${trigger} workflow checks out the pull request's code, which then runs with the base repository's token and secrets; check out the base ref or split into an unprivileged pull_request workflow.`;
        addHint(file, collector, PR_TARGET_CHECKOUT, PR_TARGET_CHECKOUT.severity, message, line);
      }
      if (blockIndent >= 0) {
        if (text.trim() === '' || indentOf(text) > blockIndent) {
          checkScript(file, collector, text, line);
          continue;
        }
        blockIndent = -1;
      }
      const key = SCRIPT_KEY.exec(text);
      if (key === null) continue;
      const value = key[4] ?? '';
      if (BLOCK_SCALAR.test(value)) {
        blockIndent = (key[1] ?? '').length + (key[2] ?? '').length;
      } else {
        checkScript(file, collector, value, line);
      }
    }
  },
};

function checkScript(
  file: FileContext,
  collector: HintCollector,
  script: string,
  line: number,
): void {
  let eventExpression: string | undefined;
  for (const match of script.matchAll(EXPRESSION)) {
    const expression = (match[1] ?? '').trim();
    if (FREE_TEXT_FIELD.test(expression)) {
      const message = `\`\${{ ${shorten(expression)} }}\` is pasted into the script before it runs, so an attacker-written title, body or branch name becomes code; pass it through env: and quote the variable.`;
      addHint(
        file,
        collector,
        UNTRUSTED_INPUT_IN_RUN,
        UNTRUSTED_INPUT_IN_RUN.severity,
        message,
        line,
      );
      return;
    }
    if (eventExpression === undefined && EVENT_FIELD.test(expression)) eventExpression = expression;
  }
  if (eventExpression !== undefined) {
    const message = `\`\${{ ${shorten(eventExpression)} }}\` is pasted into the script before it runs; it is probably not free text, but passing it through env: is safer.`;
    addHint(file, collector, UNTRUSTED_INPUT_IN_RUN, 'low', message, line);
  }
}

// Messages quote the expression: printable ASCII only, bounded so a crafted one cannot swell them.
function shorten(expression: string): string {
  const printable = expression.replace(/[^\x20-\x7E]/g, '?');
  return printable.length <= MAX_QUOTED_EXPRESSION_CHARS
    ? printable
    : `${printable.slice(0, MAX_QUOTED_EXPRESSION_CHARS)}...`;
}

function addHint(
  file: FileContext,
  collector: HintCollector,
  rule: HintRuleInfo,
  severity: HintRuleInfo['severity'],
  message: string,
  line: number,
): void {
  collector.add(rule, severity, message, line, file.lines.startOf(line));
}

function indentOf(text: string): number {
  let indent = 0;
  while (text.charCodeAt(indent) === 32) indent += 1;
  return indent;
}

function isComment(text: string): boolean {
  return text.trimStart().startsWith('#');
}
