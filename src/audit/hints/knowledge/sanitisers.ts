import type { Language } from '../detect-languages.js';
import { ALL_KINDS, SINK_KINDS } from '../flow/flow-value.js';
import { JAVA_PATH_LEAF_METHODS, RUBY_PATH_PROBES } from './file-apis.js';

const { html, sql, shell, path, url, ldap, xpath, nosql } = SINK_KINDS;

/**
 * Calls whose result is safe for some sink kinds, by the callee as written (`ESAPI.encoder().encodeForHTML`,
 * `path.basename`), tested at its end. Numbers, digests and allow-list lookups are safe everywhere;
 * an encoder only for its own context (an HTML encoder does not make SQL safe).
 */
export const SANITISERS: readonly (readonly [RegExp, number])[] = [
  [
    /(?:^|[.:>\s])(?:parseInt|parseFloat|Number|BigInt|Boolean|intval|floatval|boolval|int|float|bool|abs|round|floor|ceil|Atoi|ParseInt|ParseFloat|ParseBool|ParseUint|to_i|to_f|Integer|Float|len|strlen|count|size|uuid4|UUID|fromString|isdigit|isnumeric|isNaN|isFinite|hexdigest|digest|md5|sha1|sha256|createHash|hash|password_hash|bcrypt|hashpw|crc32|toFixed)$/,
    ALL_KINDS,
  ],
  [/(?:Integer|Long|Double|Float|Short|Byte|Boolean)\.(?:valueOf|parse\w+)$/, ALL_KINDS],
  // A path probe answers a boolean, a size or a time, whatever the path held.
  [
    /(?:^|\.)(?:os\.path\.(?:exists|lexists|isfile|isdir|islink|getsize|getmtime|getatime|getctime)|os\.access)$/,
    ALL_KINDS,
  ],
  [RUBY_PATH_PROBES, ALL_KINDS],
  // Content sniffers answer from a fixed table of types (`{ ext: 'png', mime: 'image/png' }`), whatever the bytes.
  [
    /(?:^|[.:>\s])(?:fileType\.from(?:Buffer|File|Stream|Blob)|fileTypeFrom(?:Buffer|File|Stream|Blob)|FileType\.from(?:Buffer|File|Stream)|magic\.from_(?:buffer|file)|imghdr\.what|filetype\.guess\w*|puremagic\.\w+|DetectContentType|mime_content_type|finfo_(?:file|buffer)|Marcel::MimeType\.for|MimeMagic\.by_magic)$/,
    ALL_KINDS,
  ],
  [/(?:^|\.)(?:Math|math)\.\w+$/, ALL_KINDS],
  // Generic, project-named sanitisers and validators: trusted to do what their name says.
  [/(?:^|[.:>\s])(?:sanitize|sanitise)\w*$/i, ALL_KINDS],
  [
    /(?:^|[.:>\s])(?:encodeForHTML\w*|encodeForJavaScript|encodeForCSS|escapeHtml\w*|escapeHTML|escape_html|html_escape|htmlEscape\w*|htmlspecialchars|htmlentities|strip_tags|esc_html|esc_attr|esc_js|HTMLEscapeString|EscapeString|forHtml\w*|forJavaScript\w*|escapeXml\w*|xss|filterXSS|h|escape|DOMPurify\.sanitize|bleach\.clean|escapeJavaScript|JavaScriptEncode|HtmlEncode|HtmlAttributeEncode)$/,
    html,
  ],
  [
    /(?:connection|conn|db|mysql|pool|client|pdo|mysqli|knex|sequelize)(?:\.|->)(?:escape\w*|quote)$|(?:^|[.:>\s])(?:escapeLiteral|escapeIdentifier|quote_ident|quote_literal|real_escape_string|mysqli_real_escape_string|mysql_real_escape_string|pg_escape_string|pg_escape_literal|pg_escape_identifier|encodeForSQL|sqlstring\.escape|SqlString\.escape)$/,
    sql,
  ],
  [
    /(?:^|[.:>\s])(?:escapeshellarg|escapeshellcmd|shlex\.quote|pipes\.quote|shellescape|Shellwords\.escape|shellwords\.escape|encodeForOS|shellQuote\.quote)$/,
    shell,
  ],
  [
    /(?:^|[.:>\s])(?:basename|getFileName|secure_filename|sanitize_filename|sanitizeFilename|FilenameUtils\.getName|Base)$/,
    path,
  ],
  // java.io.File#getName on a File built in place (`new File(name).getName()`): the leaf only
  // (knowledge/file-apis.ts, JAVA_PATH_LEAF_METHODS). Not any `getName`: an upload Part's is the request's.
  [/^new(?:java\.io\.)?File\(.*\)\.getName$/, path],
  // net-ldap escapes in Filter.escape, equals, begins, ends and contains; ge, le and present build a
  // BER filter whose value cannot add a clause. Filter.eq and ne do no escaping, and their `*` is a
  // wildcard (ruby-ldap/ruby-net-ldap lib/net/ldap/filter.rb at 07b48d3c), so they are sinks instead.
  // go-ldap's EscapeFilter escapes `()*\`, NUL and every byte above 0x7f (RFC 4515), EscapeDN a DN's
  // special characters (go-ldap/ldap v3/filter.go, v3/dn.go); named with their package, as projects
  // write their own escapeFilter for other query languages.
  [/(?:^|[.:>\s])ldap\.(?:EscapeFilter|EscapeDN)$/, ldap],
  [
    /(?:^|[.:>\s])(?:escape_filter_chars|escape_dn_chars|ldap_escape|encodeForLDAP|encodeForDN|filterEncode|escapeLDAPSearchFilter|escapeDN|nameEncode|Filter\.(?:escape|equals|begins|ends|contains|ge|le|present))$/,
    ldap,
  ],
  // ldapjs's and ldapts's filter objects hold a value, never filter syntax: they escape it when
  // written. A constructor's callee is read with its `new` (`newEqualityFilter`).
  [
    /(?:^|[.:>\s]|^new)(?:Equality|Substring|Presence|GreaterThanEquals|LessThanEquals|Approximate|Extensible)Filter$/,
    ldap,
  ],
  [/(?:^|[.:>\s])encodeForXPath$/, xpath],
  [
    /(?:^|[.:>\s])(?:encodeURIComponent|quote_plus|urlencode|rawurlencode|QueryEscape|PathEscape|URLEncoder\.encode|url_encode|encodeForURL|urllib\.parse\.quote|parse\.quote|url_for)$/,
    url | html,
  ],
  // Rails route helpers (`dashboard_path(tab: x)`) build a path inside the application.
  [/(?:^|[.:>\s])[a-z]\w*_(?:path|url)$/, url],
  [/(?:^|[.:>\s])(?:String|str|toString|String\.valueOf|to_s|strval|Sprint)$/, nosql],
];

/**
 * Methods that clean what their object holds when the file makes that object one of these types: a
 * java.io.File or java.nio.file.Path held in a variable and cut to its leaf (`File f = new File(name);
 * … f.getName()`; knowledge/file-apis.ts, JAVA_PATH_LEAF_METHODS). Not any `getName`: an upload
 * `Part`'s or a `MultipartFile`'s is the request's.
 */
export const RECEIVER_SANITISERS: Partial<
  Record<
    Language,
    readonly { methods: RegExp; declaredAs: RegExp; assignedFrom: RegExp; kinds: number }[]
  >
> = {
  java: [
    {
      methods: new RegExp(`^(?:${JAVA_PATH_LEAF_METHODS.join('|')})$`),
      declaredAs: /(?<![\w$.])(?:java\.io\.)?File|(?<![\w$.])(?:java\.nio\.file\.)?Path/,
      assignedFrom: /new\s+(?:java\.io\.)?File\s*\(|(?:Paths\.get|Path\.of)\s*\(/,
      kinds: path,
    },
  ],
};

/** Sanitisers whose name is too short to trust outside their language (a minifier's `e(x)`). */
export const LANGUAGE_SANITISERS: Partial<
  Record<Language, readonly (readonly [RegExp, number])[]>
> = {
  // Laravel's e() is htmlspecialchars($value ?? '', ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8')
  // (https://laravel.com/docs/helpers#method-e; Illuminate/Support/helpers.php), what Blade's {{ }} calls.
  php: [[/^\\?e$/, html]],
};

/** The sink kinds a call to this callee makes its result safe for (0 when it is no sanitiser). */
export function sanitisedKinds(callee: string, language?: Language): number {
  let kinds = 0;
  for (const [pattern, bits] of SANITISERS) if (pattern.test(callee)) kinds |= bits;
  const own = language === undefined ? undefined : LANGUAGE_SANITISERS[language];
  for (const [pattern, bits] of own ?? []) if (pattern.test(callee)) kinds |= bits;
  return kinds;
}

/** Methods whose result no longer carries the receiver's text: lengths, positions, tests. */
export const CLEAN_RESULT_METHODS =
  /^(?:length|size|count|indexOf|lastIndexOf|search|equals|equalsIgnoreCase|compareTo|contains|containsKey|includes|has|startsWith|endsWith|startswith|endswith|start_with\?|end_with\?|include\?|isEmpty|isBlank|empty\?|nil\?|blank\?|present\?|hashCode|matches|test|exists|isDirectory|isFile|isdigit|isnumeric|isalpha|nextInt|nextLong|nextDouble|getTime|hasMoreElements|hasNext|ok|status|statusCode|StatusCode)$/;

// Casts to a string type.
export const STRING_CAST = /^(?:string|String|str)$/;
// Casts to a number or a boolean: the value carries no text.
export const NUMERIC_CAST =
  /^\(\s*(?:int|long|short|byte|double|float|boolean|char|bool|integer|Integer|Long|Double)\s*\)/;

// Calls whose result no longer carries the raw request value, for the assignment look-back (files
// the flow analysis does not read): tested anywhere on the right-hand side.
export const LOOK_BACK_SANITISER =
  /\b(?:escape\w*|encode\w*|Encode\.for\w+|sanitize\w*|sanitise\w*|basename|secure_filename|htmlspecialchars|htmlentities|escapeshellarg|escapeshellcmd|escape_filter_chars|quote|shlex\.quote|Base|parseInt|parseFloat|Number|int|float|Integer\.parseInt|Long\.parseLong|intval|to_i|uuid\.UUID)\s*\(/;
