import { describe, it } from 'vitest';
import {
  expectHint,
  expectNoHint,
  lines,
  type NegativeCase,
  type PositiveCase,
} from './hint-cases.js';

const RULE = 'sql/string-built-query';

const positives: PositiveCase[] = [
  [
    'js template literal passed to query',
    'src/db.ts',
    lines(
      'export async function find(id: string) {',
      '  return db.query(`SELECT * FROM users WHERE id = ${id}`);',
      '}',
    ),
    RULE,
    2,
    'high',
  ],
  [
    'js concatenation assigned to a variable',
    'src/db.js',
    "const sql = 'SELECT name FROM users WHERE name = \\'' + name + '\\'';",
    RULE,
    1,
    'medium',
  ],
  [
    'js continuation line of a multi-line template',
    'src/db.ts',
    lines('const sql = `', '  SELECT *', '  FROM orders', '  WHERE customer = ${customer}', '`;'),
    RULE,
    4,
    'medium',
  ],
  [
    'js knex raw with interpolation',
    'src/db.ts',
    'await knex.raw(`DELETE FROM sessions WHERE user_id = ${userId}`);',
    RULE,
    1,
    'high',
  ],
  [
    'python f-string in execute',
    'app/db.py',
    lines('def find(cur, uid):', '    cur.execute(f"SELECT * FROM users WHERE id = {uid}")'),
    RULE,
    2,
    'high',
  ],
  [
    'python % formatting',
    'app/db.py',
    'q = "DELETE FROM items WHERE owner = \'%s\'" % owner',
    RULE,
    1,
    'medium',
  ],
  [
    'python .format',
    'app/db.py',
    'cursor.execute("UPDATE accounts SET balance = {} WHERE id = {}".format(b, i))',
    RULE,
    1,
    'high',
  ],
  [
    'python concatenation',
    'app/db.py',
    'sql = "SELECT id FROM t WHERE name = \'" + name + "\'"',
    RULE,
    1,
    'medium',
  ],
  [
    'ruby interpolated where',
    'app/models/user.rb',
    'User.where("name = \'#{params[:name]}\'")',
    RULE,
    1,
    'high',
  ],
  [
    'ruby interpolated statement',
    'app/models/user.rb',
    'sql = "SELECT * FROM users WHERE email = \'#{email}\'"',
    RULE,
    1,
    'medium',
  ],
  [
    'php interpolation in mysqli_query',
    'web/a.php',
    '<?php $r = mysqli_query($db, "SELECT * FROM users WHERE id = $id");',
    RULE,
    1,
    'high',
  ],
  [
    'php concatenation of request input',
    'web/a.php',
    '<?php $q = "SELECT * FROM users WHERE id = " . $_GET["id"];',
    RULE,
    1,
    'high',
  ],
  [
    'php laravel whereRaw',
    'app/Repo.php',
    '<?php User::whereRaw("name = \'$name\'")->get();',
    RULE,
    1,
    'high',
  ],
  [
    'java concatenation into executeQuery',
    'src/Dao.java',
    'ResultSet rs = stmt.executeQuery("SELECT * FROM users WHERE name = \'" + name + "\'");',
    RULE,
    1,
    'high',
  ],
  [
    'kotlin string template',
    'src/Dao.kt',
    'val q = "SELECT * FROM users WHERE id = $id"',
    RULE,
    1,
    'medium',
  ],
  [
    'csharp interpolated string',
    'Data/Repo.cs',
    'var cmd = new SqlCommand($"SELECT * FROM Users WHERE Name = \'{name}\'", conn);',
    RULE,
    1,
    'high',
  ],
  [
    'go Sprintf',
    'db/repo.go',
    'q := fmt.Sprintf("SELECT * FROM users WHERE name = \'%s\'", name)',
    RULE,
    1,
    'medium',
  ],
  [
    'go concatenation into Query',
    'db/repo.go',
    'rows, err := db.Query("SELECT * FROM users WHERE id = " + id)',
    RULE,
    1,
    'high',
  ],
  [
    'perl interpolation into do',
    'lib/Db.pm',
    '$dbh->do("DELETE FROM users WHERE id = $id");',
    RULE,
    1,
    'high',
  ],
];

const negatives: NegativeCase[] = [
  [
    'js parameterised query',
    'src/db.ts',
    "await db.query('SELECT * FROM users WHERE id = $1', [id]);",
    RULE,
  ],
  [
    'js tagged sql template binds values',
    'src/db.ts',
    'await sql`SELECT * FROM users WHERE id = ${id}`;',
    RULE,
  ],
  [
    'js tagged multi-line template binds values',
    'src/db.ts',
    lines('const rows = await sql`', '  SELECT *', '  FROM users', '  WHERE id = ${id}', '`;'),
    RULE,
  ],
  [
    'english text that mentions select and from',
    'src/ui.ts',
    'alert("Please select a file from " + folder);',
    RULE,
  ],
  [
    'english text that mentions delete from',
    'src/ui.ts',
    'log("Delete from cache: " + key);',
    RULE,
  ],
  [
    'python parameterised execute',
    'a.py',
    'cur.execute("SELECT * FROM users WHERE id = %s", (uid,))',
    RULE,
  ],
  ['python constant query', 'a.py', 'cur.execute("SELECT count(*) FROM users")', RULE],
  [
    'java prepared statement with placeholders',
    'src/A.java',
    'PreparedStatement ps = conn.prepareStatement("SELECT * FROM users WHERE id = ?");',
    RULE,
  ],
  [
    'csharp EF FromSqlInterpolated binds values',
    'Data/A.cs',
    'var u = ctx.Users.FromSqlInterpolated($"SELECT * FROM Users WHERE Id = {id}");',
    RULE,
  ],
  [
    'sql in a comment',
    'src/db.ts',
    '// SELECT * FROM users WHERE id = ${id} is what the ORM emits',
    RULE,
  ],
];

describe('SQL built from strings', () => {
  it.each(positives)('%s', (_label, path, code, ruleId, line, severity) => {
    expectHint(path, code, ruleId, line, severity);
  });
  it.each(negatives)('near miss: %s', (_label, path, code, ruleId) => {
    expectNoHint(path, code, ruleId);
  });
});
