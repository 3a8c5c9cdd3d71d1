import { describe, it } from 'vitest';
import { expectHint, expectNoHint, lines } from './hint-cases.js';

const PATH = 'path-traversal/request-input-file-access';

// The profile-image upload pattern: the user comes from a store keyed by the request's token, and
// the extension is checked against a list in a ternary that repeats the tested call.
function upload(extension: string, user: string): string {
  return lines(
    "const security = require('../lib/insecurity')",
    'module.exports = function upload () {',
    '  return (req, res, next) => {',
    '    const url = req.body.imageUrl',
    `    const loggedInUser = ${user}`,
    `    const ext = ${extension}`,
    '    fs.createWriteStream(`uploads/${loggedInUser.data.id}.${ext}`)',
    '  }',
    '}',
  );
}

const LISTED =
  "['jpg', 'png'].includes(url.split('.').slice(-1)[0].toLowerCase()) ? url.split('.').slice(-1)[0].toLowerCase() : 'jpg'";
const STORED = 'security.authenticatedUsers.get(req.cookies.token)';

describe('values looked up by a request key, and allow-listed calls', () => {
  it('a record from a store keyed by the token, with an allow-listed extension, is not request text', () => {
    expectNoHint('routes/upload.js', upload(LISTED, STORED), PATH);
  });

  it('the extension taken as sent is', () => {
    expectHint('routes/upload.js', upload("url.split('.').pop()", STORED), PATH, 7, 'medium');
  });

  it('the token itself is', () => {
    expectHint('routes/upload.js', upload(LISTED, 'req.cookies.token'), PATH, 7, 'medium');
  });

  it('a lookup with a default can return the default, which is request text', () => {
    expectHint(
      'routes/upload.js',
      upload(LISTED, 'security.authenticatedUsers.get(req.cookies.token, req.query.user)'),
      PATH,
      7,
      'medium',
    );
  });

  it('a list check joined by || with another call proves nothing about the value', () => {
    const code = lines(
      "app.get('/f', (req, res) => {",
      '  const name = req.query.name',
      '  if (allowed.includes(name) || isAdmin(req.user)) {',
      '    fs.readFile(name, () => {})',
      '  }',
      '})',
    );
    expectHint('routes/f.js', code, PATH, 4, 'medium');
  });

  it('rows a query returns are stored data, though the request chose them', () => {
    const XSS = 'xss/request-html-response';
    const page = (shown: string): string =>
      lines(
        '<?php',
        "$user = $_GET['username'];",
        '$result = mysqli_query($conn, "SELECT * FROM users WHERE user = \'$user\'");',
        '$row = mysqli_fetch_assoc($result);',
        "$avatar = $row['avatar'];",
        `$html .= "<img src=\\"{${shown}}\\" />";`,
      );
    expectNoHint('web/welcome.php', page('$avatar'), XSS);
    expectHint('web/welcome.php', page('$user'), XSS, 6, 'low');
    const route = (shown: string): string =>
      lines(
        'app.get("/u", async (req, res) => {',
        '  const rows = await db.query("SELECT name FROM users WHERE id = $1", [req.query.id]);',
        '  const name = rows[0].name;',
        `  res.send("<p>" + ${shown} + "</p>");`,
        '});',
      );
    expectNoHint('routes/u.js', route('name'), XSS);
    expectHint('routes/u.js', route('req.query.id'), XSS, 4, 'medium');
  });
});
