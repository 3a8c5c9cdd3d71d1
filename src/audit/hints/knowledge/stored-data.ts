// Calls whose result is data from somewhere else, not the text of their arguments: what a file, a
// remote server or a database returns is stored data, even when the request chose which one.

/**
 * Reads of files and remote resources, by the callee as written (`open`, Node's `fs.readFileSync`,
 * `requests.get`, `urlopen`; Java's `Files.readString`, Go's `os.ReadFile`, Ruby's `File.read`; PHP's
 * `file_get_contents` and Laravel's `File::get`, by name; a handle's reads follow what it opened).
 * `php://input` read by name is the request body, a
 * source found before this table is read (knowledge/sources.ts, QUOTED_REQUEST_INPUT).
 */
export const EXTERNAL_READS =
  /(?:^|\.)(?:open|io\.open|codecs\.open|readFile|readFileSync|urlopen|urlretrieve|requests\.(?:get|post|put|patch|delete|head|options|request)|httpx\.(?:get|post|put|patch|delete|head|request)|read_text|read_bytes|Files\.(?:readAllBytes|readString|readAllLines|lines|newInputStream|newBufferedReader)|(?:os|ioutil)\.ReadFile|(?:File|IO)\.(?:read|binread|readlines))$|(?:^|\\)(?:file_get_contents|(?:File|Storage)::get)$/;

/** Calls that look a record up by key: the record is stored data, not the key's text. */
export const RECORD_LOOKUPS =
  /^(?:find|find_by|find_by!|find_by_id|authenticate|authenticate_by|findById|findByPk|findOne|findUnique|findFirst|get_object_or_404|getById|getOne|load|fetch_one|first_or_404|get_or_404)$/;
// Rows a database query returns are stored data, not the text of the query that selected them.
export const QUERY_RESULTS =
  /^(?:mysqli?_query|pg_query(?:_params)?|sqlite_query|(?:mysqli?|pg)_fetch_\w+|mysql_result|fetch|fetchAll|fetchall|fetchone|fetchmany|fetch_assoc|fetch_array|fetch_row|fetch_object|fetchColumn|executeQuery|query)$/;
// A loaded module is code the program ships, not the text of its name.
export const MODULE_LOADERS = /^(?:require|__import__|import_module)$/;
