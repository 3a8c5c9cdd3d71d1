import { listSessions } from '../../../agent/index.js';
import type { GitHomeDirectories } from '../../../shared/git/build-git-environment.js';
import { createMentionCompleter } from '../attach/complete-mention.js';
import type { Completer } from '../line-editor/create-line-editor.js';
import { createSlashCompleter } from './complete-slash-command.js';
import { listKnownModelIds } from './list-known-model-ids.js';

export interface ChatCompleterInput {
  workspaceRoot: string;
  stateDir: string;
  /** The Read rules: a name they refuse is never offered. */
  canRead: (relativePath: string, isFolder?: boolean) => boolean;
  /** Where git's global excludes file is looked for. */
  home: GitHomeDirectories;
  /** The config's own `models` keys, completed beside the catalogue's. */
  configuredModels: readonly string[];
}

/** Tab in `oy chat`: a slash command and its argument, else an `@` mention of a workspace file. */
export function createChatCompleter(input: ChatCompleterInput): Completer {
  let modelIds: string[] | undefined;
  const slash = createSlashCompleter({
    modelIds: () => (modelIds ??= listKnownModelIds(input.configuredModels)),
    sessionKeys: async () =>
      (await listSessions(input.stateDir, input.workspaceRoot)).flatMap((summary) =>
        summary.name === undefined ? [summary.id] : [summary.id, summary.name],
      ),
  });
  const mention = createMentionCompleter(input.workspaceRoot, input.canRead, input.home);
  return async (text, cursor) => (await slash(text, cursor)) ?? (await mention(text, cursor));
}
