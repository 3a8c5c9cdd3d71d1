import * as prettier from 'prettier';

/** A node of the Markdown syntax tree (mdast, as remark builds it). */
export interface MarkdownNode {
  type: string;
  value?: string;
  depth?: number;
  lang?: string | null;
  url?: string;
  children?: MarkdownNode[];
}

interface PrettierDebug {
  parse(text: string, options: { parser: string }): Promise<{ ast: MarkdownNode }>;
}

// Prettier ships remark's Markdown parser with GFM tables; its debug entry point hands back the
// tree, so tests check the rendered structure with a real parser instead of string matching.
const debug = (prettier as unknown as { __debug: PrettierDebug }).__debug;

/** The syntax tree of a Markdown document. */
export async function parseMarkdown(text: string): Promise<MarkdownNode> {
  const { ast } = await debug.parse(text, { parser: 'markdown' });
  return ast;
}

/** Every node of the tree, depth first. */
export function listNodes(node: MarkdownNode): MarkdownNode[] {
  return [node, ...(node.children ?? []).flatMap(listNodes)];
}

/** The plain text a node renders as: its text, inline code and escapes resolved. */
export function textOf(node: MarkdownNode): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value ?? '';
  if (node.type === 'break') return '\n';
  return (node.children ?? []).map(textOf).join('');
}
