import TurndownService from 'turndown';

// One converter for the process: turndown keeps no per-call state.
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
// Scripts, styles and page chrome are noise to the model and may carry injected text.
turndown.remove(['script', 'style', 'noscript', 'iframe', 'template']);

/** Converts an HTML page to Markdown for the model. */
export function htmlToMarkdown(html: string): string {
  return turndown.turndown(html);
}
