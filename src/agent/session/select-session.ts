import { UsageError } from '../../shared/errors.js';

const LIST_HINT = '`oy sessions` lists the saved sessions of this workspace';
/** Candidates named in an "ambiguous" error; more would bury the message. */
const MAX_CANDIDATES_SHOWN = 5;

interface Selectable {
  summary: { id: string; number: number; name?: string };
}

/**
 * Picks from sessions sorted newest first: `latest`, a number from `oy sessions`, an exact id, a name
 * (the newest with it), then a unique id prefix.
 */
export function selectSession<T extends Selectable>(sessions: readonly T[], selector: string): T {
  const wanted = selector.trim();
  if (sessions.length === 0) {
    throw new UsageError('no saved session for this workspace', {
      hint: 'start one with `oy run` or `oy chat`; sessions are saved per workspace (see --cwd)',
    });
  }
  if (wanted === 'latest') return sessions[0]!;
  const byNumber = /^\d+$/.test(wanted) ? sessions[Number(wanted) - 1] : undefined;
  const exact =
    byNumber ??
    sessions.find((session) => session.summary.id === wanted) ??
    sessions.find((session) => session.summary.name === wanted);
  if (exact !== undefined) return exact;
  const prefixed =
    wanted === '' ? [] : sessions.filter((session) => session.summary.id.startsWith(wanted));
  if (prefixed.length === 1) return prefixed[0]!;
  if (prefixed.length > 1) {
    const shown = prefixed.slice(0, MAX_CANDIDATES_SHOWN).map((session) => session.summary.id);
    const more =
      prefixed.length > shown.length ? `, and ${prefixed.length - shown.length} more` : '';
    throw new UsageError(
      `session \`${wanted}\` is ambiguous: it matches ${shown.join(', ')}${more}`,
      { hint: `give more of the id; ${LIST_HINT}` },
    );
  }
  throw new UsageError(`no session \`${wanted}\` in this workspace`, {
    hint: `give \`latest\`, a number, an id or a name; ${LIST_HINT}`,
  });
}
