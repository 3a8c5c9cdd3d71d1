import { isStatedSecret } from '../is-stated-secret.js';
import type { ValueRange, WindowRule } from '../redaction-rule.js';

// A MySQL or MariaDB client's option group: `[client]`, `[mysql]`, `[mysqldump]`, `[client-mariadb]`.
const GROUP_HEADER = /^[ \t]*\[(?:client|mysql|mariadb)[\w-]*\][ \t]*\r?$/gm;
const ANY_HEADER = /^[ \t]*\[/m;
// `password=…` or a prefix the client accepts for it (`pass=`), quoted or not. Group 1 the value.
const PASSWORD_LINE =
  /^[ \t]*pass(?:w(?:o(?:r(?:d)?)?)?)?[ \t]*=[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s#;]+))[ \t]*(?:[#;].*)?\r?$/dgm;
// How many lines after a group header its options are looked for.
const GROUP_LINES = 40;

/** `password=` in a `.my.cnf` option group, in any file: judged only for being a stand-in. */
export const MYSQL_OPTION_FILE_RULE: WindowRule = {
  id: 'mysql-option-file',
  description:
    'The password in a MySQL/MariaDB option file group ([client], [mysql], [mysqldump], ...)',
  keywords: ['[client', '[mysql', '[mariadb'],
  scope: 'window',
  contextLines: GROUP_LINES,
  findIn(text: string, start: number, end: number): ValueRange[] {
    const window = text.slice(start, end);
    const found: ValueRange[] = [];
    GROUP_HEADER.lastIndex = 0;
    for (
      let header = GROUP_HEADER.exec(window);
      header !== null;
      header = GROUP_HEADER.exec(window)
    ) {
      const bodyStart = header.index + header[0].length;
      const nextHeader = window.slice(bodyStart + 1).search(ANY_HEADER);
      const body = window.slice(
        bodyStart,
        nextHeader === -1 ? undefined : bodyStart + 1 + nextHeader,
      );
      PASSWORD_LINE.lastIndex = 0;
      for (let line = PASSWORD_LINE.exec(body); line !== null; line = PASSWORD_LINE.exec(body)) {
        const group = [1, 2, 3].find((index) => line?.[index] !== undefined) ?? 3;
        const range = line.indices?.[group];
        if (range === undefined || !isStatedSecret(line[group] ?? '')) continue;
        found.push({ start: start + bodyStart + range[0], end: start + bodyStart + range[1] });
      }
    }
    return found;
  },
};
