import type { AuditSettings, ConfigFile } from './config-schema.js';

type AuditSection = NonNullable<ConfigFile['audit']>;
type AuditKey = keyof AuditSection;

/**
 * What an `audit` key of the project file (`.oy/config.json`, repository content) may do:
 * `apart` (kept beside the user's settings; the files it leaves out are listed and count as not
 * reviewed), `lower` (taken only when it narrows: a smaller cap) or `ignored` (with a warning).
 * The compiler asks for a decision on every new key.
 */
export const PROJECT_AUDIT_KEYS: Readonly<
  Record<AuditKey, { rule: 'apart' } | { rule: 'lower' | 'ignored'; why: string }>
> = {
  include: { rule: 'apart' },
  exclude: { rule: 'apart' },
  focus: {
    rule: 'ignored',
    why: 'a repository may not give the model instructions as the user (pass focus words on the command line)',
  },
  format: {
    rule: 'ignored',
    why: "the report's format is the user's choice, and CI reads the file it expects (--format)",
  },
  chunkTokens: {
    rule: 'ignored',
    why: "chunk size follows the user's model and budget (--chunk-tokens)",
  },
  maxChunks: {
    rule: 'lower',
    why: 'a project file may lower the cap on model calls, never raise it',
  },
  maxFileBytes: {
    rule: 'ignored',
    why: 'a smaller limit would leave files unread, their secrets unchecked, and a larger one sends more (--max-file-bytes)',
  },
  tokenHeadroom: {
    rule: 'ignored',
    why: 'it changes the token counts the chunk budget and the --max-cost estimate rely on',
  },
  encoding: {
    rule: 'ignored',
    why: 'it changes the token counts the chunk budget and the --max-cost estimate rely on',
  },
};

/** The project file's include/exclude, kept apart from the user's: files they leave out count as not reviewed. */
export interface ProjectAuditRules {
  include: string[];
  exclude: string[];
}

/**
 * Applies {@link PROJECT_AUDIT_KEYS} to a project file's audit section: include/exclude go to
 * `projectAudit`, each ignored or widening key becomes a warning, and the keys left are returned
 * for the merge.
 */
export function takeProjectAudit(
  section: AuditSection,
  source: string,
  current: AuditSettings,
  projectAudit: ProjectAuditRules,
  warnings: string[],
): Partial<AuditSection> {
  const kept: Partial<AuditSection> = {};
  for (const key of Object.keys(section) as AuditKey[]) {
    const value = section[key];
    if (value === undefined) continue;
    const decision = PROJECT_AUDIT_KEYS[key];
    if (decision.rule === 'apart') {
      projectAudit[key as 'include' | 'exclude'].push(...(value as string[]));
      continue;
    }
    const now = current[key];
    if (decision.rule === 'lower' && typeof value === 'number' && typeof now === 'number') {
      if (value <= now) {
        Object.assign(kept, { [key]: value });
        continue;
      }
    }
    // An empty list asks for nothing: no warning for it.
    if (Array.isArray(value) && value.length === 0) continue;
    // Numbers and the schema's enum words are shown; a list may hold the repository's own prose.
    const shown = Array.isArray(value) ? '' : ` ${JSON.stringify(value)}`;
    warnings.push(`${source}: "audit.${key}"${shown} ignored; ${decision.why}`);
  }
  return kept;
}
