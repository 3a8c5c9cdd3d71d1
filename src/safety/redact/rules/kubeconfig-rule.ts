import { isStatedSecret } from '../is-stated-secret.js';
import type { ValueRange, WindowRule } from '../redaction-rule.js';

// A kubeconfig by its content: `kind: Config` at the top level, and a `users:` list.
const KIND_CONFIG = /^kind:[ \t]*["']?Config["']?[ \t]*\r?$/m;
const USERS = /^users:[ \t]*\r?$/m;
// A user's credential fields (kubectl's `AuthInfo`, and the auth-provider's config). Group 2 the value.
const CREDENTIAL_LINE =
  /^[ \t-]*(token|password|client-key-data|id-token|refresh-token|access-token|client-secret):[ \t]*["']?([^\s"'#]+)["']?[ \t]*\r?$/dgm;
// kubectl writes `kind` before `preferences` and `users`, which may follow after certificates.
const KUBECONFIG_LINES = 200;

/** The credentials of a kubeconfig's users, in a file of any name (`admin.conf`, `.kube/config`). */
export const KUBECONFIG_RULE: WindowRule = {
  id: 'kubeconfig-credential',
  description:
    'A user credential in a kubeconfig (kind: Config with users:): token, password, client key',
  keywords: ['kind: config'],
  scope: 'window',
  contextLines: KUBECONFIG_LINES,
  findIn(text: string, start: number, end: number): ValueRange[] {
    const window = text.slice(start, end);
    if (!KIND_CONFIG.test(window)) return [];
    const users = USERS.exec(window);
    if (users === null) return [];
    const found: ValueRange[] = [];
    const section = window.slice(users.index);
    CREDENTIAL_LINE.lastIndex = 0;
    for (
      let line = CREDENTIAL_LINE.exec(section);
      line !== null;
      line = CREDENTIAL_LINE.exec(section)
    ) {
      const range = line.indices?.[2];
      if (range === undefined || !isStatedSecret(line[2] ?? '')) continue;
      const offset = start + users.index;
      found.push({ start: offset + range[0], end: offset + range[1] });
    }
    return found;
  },
};
