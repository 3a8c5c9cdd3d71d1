// Example snippets: a few lines of code, or a handler body in the shape a framework routes requests to.

/** Lines of an example snippet joined into one file text. */
export function code(...lines: string[]): string {
  return lines.join('\n');
}

function indent(prefix: string, lines: readonly string[]): string[] {
  return lines.map((line) => (line === '' ? line : `${prefix}${line}`));
}

/** An Express route handler with these body lines. */
export function express(...body: string[]): string {
  return code("app.all('/example', (req, res) => {", ...indent('  ', body), '});');
}

/** A routed Flask view with these body lines. */
export function flask(...body: string[]): string {
  return code(
    'from flask import Flask, request, session, redirect, url_for, make_response',
    '',
    "@app.route('/example', methods=['GET', 'POST'])",
    'def example():',
    ...indent('    ', body),
  );
}

/** A servlet method with these body lines. */
export function servlet(...body: string[]): string {
  return code(
    'class Example {',
    '  void handle(HttpServletRequest request, HttpServletResponse response) throws Exception {',
    ...indent('    ', body),
    '  }',
    '}',
  );
}

/** A Go net/http handler with these body lines. */
export function goHandler(...body: string[]): string {
  return code('func handler(w http.ResponseWriter, r *http.Request) {', ...indent('\t', body), '}');
}

/** A Rails controller action with these body lines. */
export function railsAction(...body: string[]): string {
  return code('def example', ...indent('  ', body), 'end');
}

/** A PHP file with these lines. */
export function php(...lines: string[]): string {
  return code('<?php', ...lines);
}
