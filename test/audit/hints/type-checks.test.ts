import { describe, it } from 'vitest';
import { expectHint, expectNoHint, lines } from './hint-cases.js';

// A value tested to be a number or a run of letters and digits, on the path where the test held.
describe('type checks as guards', () => {
  it('PHP ctype_digit and is_numeric', () => {
    const page = (check: string): string =>
      lines(
        '<?php',
        "$id = $_GET['id'];",
        `if (${check}) { die('bad id'); }`,
        '$result = mysqli_query($conn, "SELECT * FROM items WHERE id = $id");',
      );
    for (const check of ['!ctype_digit($id)', '!is_numeric($id)', "!preg_match('/^\\d+$/', $id)"])
      expectNoHint('web/item.php', page(check), 'sql/string-built-query');
    // Attack: a test of another value, or a pattern anchored at one end only, proves nothing.
    for (const check of [
      '!ctype_digit($page)',
      "!preg_match('/^\\d+/', $id)",
      "!preg_match('/^\\d+$/m', $id)",
      'empty($id)',
    ])
      expectHint('web/item.php', page(check), 'sql/string-built-query', 4, 'high');
  });

  it('a JavaScript regex test and Number.isInteger', () => {
    const route = (check: string): string =>
      lines(
        'app.get("/item", (req, res) => {',
        '  const id = req.query.id;',
        `  if (${check}) return res.status(400).end();`,
        '  db.query("SELECT * FROM items WHERE id = " + id);',
        '});',
      );
    expectNoHint('routes/item.js', route('!/^\\d+$/.test(id)'), 'sql/string-built-query');
    expectNoHint('routes/item.js', route('!/^[a-z0-9]+$/i.test(id)'), 'sql/string-built-query');
    // Attack: `.` and `-` in the class, a missing anchor, or a test that may pass either way.
    for (const check of [
      '!/^[\\w.-]+$/.test(id)',
      '!/^\\d+/.test(id)',
      '!/\\d+$/.test(id)',
      '!/^\\d+$/.test(id) && id !== "all"',
      '!/^\\d+$/m.test(id)',
    ]) {
      expectHint('routes/item.js', route(check), 'sql/string-built-query', 4, 'high');
    }
  });

  it('Python isalnum, and Ruby only with \\A and \\z', () => {
    expectNoHint(
      'app/views.py',
      lines(
        'def ping(request):',
        '    host = request.GET["host"]',
        '    if not host.isalnum():',
        '        return HttpResponseBadRequest()',
        '    os.system("ping -c 1 " + host)',
      ),
      'cmd-exec/python-shell-string',
    );
    const ruby = (pattern: string): string =>
      lines(
        'def show',
        '  id = params[:id]',
        `  return head(:bad_request) unless id =~ ${pattern}`,
        '  User.where("id = #{id}")',
        'end',
      );
    expectNoHint(
      'app/controllers/users_controller.rb',
      ruby('/\\A\\d+\\z/'),
      'sql/string-built-query',
    );
    // `^` and `$` match at any line in Ruby: "1\n' OR 1=1" passes.
    expectHint(
      'app/controllers/users_controller.rb',
      ruby('/^\\d+$/'),
      'sql/string-built-query',
      4,
      'high',
    );
  });

  it('Java matches', () => {
    const servlet = (check: string): string =>
      lines(
        'public void doGet(HttpServletRequest request, HttpServletResponse response) throws Exception {',
        '  String id = request.getParameter("id");',
        `  if (${check}) throw new IllegalArgumentException("id");`,
        '  statement.executeQuery("SELECT * FROM items WHERE id = " + id);',
        '}',
      );
    expectNoHint('src/Items.java', servlet('!id.matches("\\\\d+")'), 'sql/string-built-query');
    expectHint(
      'src/Items.java',
      servlet('!id.matches("[\\\\w.]+")'),
      'sql/string-built-query',
      4,
      'high',
    );
  });
});
