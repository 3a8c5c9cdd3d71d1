import type { ApprovalAnswer } from '../../agent/authorize/create-authorizer.js';
import type { ApprovalRequest } from '../../agent/tools/tool-types.js';
import { summarizeAction } from '../../agent/authorize/summarize-action.js';
import { neutralizeControl, type LineBreaks } from '../../shared/terminal/neutralize-control.js';
import type { Colors } from '../terminal.js';
import { colorizeDiff } from './colorize-diff.js';

/** The question after every approval preview; anything but yes or always is no. */
export const APPROVAL_QUESTION = 'Allow? [y]es / [n]o / [a]lways for this session (default no): ';

/**
 * What the user reads before answering (stderr): `<tool> wants to: <summary>`, then the preview:
 * a coloured unified diff for write tools, the command with cwd, timeout and sandbox for bash, the URL for webfetch;
 * then what answering "always" would grant. Every part comes from the model or the workspace, so its control
 * characters are shown (`^[`, `<U+202E>`) before anything is coloured: what is approved is what runs.
 */
export function renderApproval(request: ApprovalRequest, c: Colors): string {
  const header = `${c.bold(oneLine(request.tool))} wants to: ${summarizeAction(request.action)}`;
  const preview = request.preview === undefined ? '' : renderPreview(request, c);
  const always = request.always === undefined ? '' : `${c.dim(oneLine(request.always))}\n`;
  return preview === '' ? `${header}\n${always}` : `${header}\n${preview}\n${always}`;
}

/** `y`/`yes` → yes, `a`/`always` → always, anything else (empty, Ctrl-C, Ctrl-D) → no. */
export function parseApprovalAnswer(answer: string | null): ApprovalAnswer {
  const word = (answer ?? '').trim().toLowerCase();
  if (word === 'y' || word === 'yes') return 'yes';
  if (word === 'a' || word === 'always') return 'always';
  return 'no';
}

function renderPreview(request: ApprovalRequest, c: Colors): string {
  // A command keeps its CRs visible (the shell gets them); a diff or text reads CRLF as a line break.
  const lineBreaks: LineBreaks = request.tool === 'bash' ? 'keep' : 'normalize';
  const preview = neutralizeControl(request.preview ?? '', { lineBreaks }).replace(/\n+$/u, '');
  switch (request.tool) {
    case 'write':
    case 'edit':
    case 'replace':
    case 'todo':
      return colorizeDiff(preview, c);
    case 'bash':
      return preview
        .split('\n')
        .map((line) => (line.startsWith('$ ') ? c.bold(line) : c.dim(line)))
        .join('\n');
    default:
      return preview;
  }
}

function oneLine(text: string): string {
  return neutralizeControl(text, { lineBreaks: 'show' });
}
