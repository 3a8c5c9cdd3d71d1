export const REPAIR_PROMPT_TEMPLATE = `Your answer could not be read: {{ERROR}}
Answer again with only the JSON object {"findings": [...]} in the format described above, no prose and no code fence. If there is nothing to report, answer {"findings": []}.`;

/** The one follow-up user message after an answer `parseFindings` could not read. */
export function renderRepairPrompt(error: string): string {
  return REPAIR_PROMPT_TEMPLATE.replace('{{ERROR}}', () => error);
}
