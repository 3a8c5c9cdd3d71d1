/** The tools a permission rule may name. */
export const PERMISSION_TOOLS = ['Bash', 'Write', 'Edit', 'Read', 'WebFetch', 'Mcp'] as const;

/** `Tool` or `Tool(content)`: the shape every rule has; safety/policy parses the content. */
export const RULE_SHAPE = /^(Bash|Write|Edit|Read|WebFetch|Mcp)(?:\((.*)\))?$/su;

/**
 * Why a rule does not even have the shape of one (an unknown tool, an unclosed parenthesis), or
 * undefined. Checked when a config file is read, so a broken rule is refused before any command runs.
 */
export function describeRuleShapeProblem(text: string): string | undefined {
  const rule = text.trim();
  if (RULE_SHAPE.test(rule)) return undefined;
  const tool = /^[^(]*/u.exec(rule)?.[0] ?? '';
  const tools = PERMISSION_TOOLS.join(', ');
  if (!(PERMISSION_TOOLS as readonly string[]).includes(tool)) {
    const known = PERMISSION_TOOLS.find((name) => name.toLowerCase() === tool.toLowerCase());
    return known === undefined
      ? `invalid permission rule ${JSON.stringify(text)}: unknown tool ${JSON.stringify(tool)}; the tools are ${tools}`
      : `invalid permission rule ${JSON.stringify(text)}: the tool is written ${known}`;
  }
  if (!rule.endsWith(')'))
    return `invalid permission rule ${JSON.stringify(text)}: the parenthesis after ${tool} is not closed`;
  return `invalid permission rule ${JSON.stringify(text)}: expected ${tool} or ${tool}(...)`;
}
