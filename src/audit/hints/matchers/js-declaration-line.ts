// A line that only declares a method or function with this name (`async fetch(url) {`), not a call.
export const JS_DECLARATION_LINE =
  /^\s*(?:(?:public|private|protected|static|async|override|export|function)\s+)*[\w$]+\s*\([^()]*\)\s*(?::[^={]*)?\{\s*$/;
