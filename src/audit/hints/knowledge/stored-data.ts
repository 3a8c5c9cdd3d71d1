// Calls whose result is data from somewhere else, not the text of their arguments: what a file, a
// remote server or a database returns is stored data, even when the request chose which one.

/** Reads of files and remote resources, by the callee as written (`open`, `requests.get`, `urlopen`). */
export const EXTERNAL_READS =
  /(?:^|\.)(?:open|io\.open|codecs\.open|urlopen|urlretrieve|requests\.(?:get|post|put|patch|delete|head|options|request)|httpx\.(?:get|post|put|patch|delete|head|request)|read_text|read_bytes)$/;
