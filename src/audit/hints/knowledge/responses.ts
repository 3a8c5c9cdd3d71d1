import type { Language } from '../detect-languages.js';
import { LARAVEL_ROUTE_CLOSURE, PAGE_ROUTE_BLOCKS, ROUTE_DECORATOR } from './sources.js';

// How a view's answer becomes HTML, from the frameworks' own references: Flask serves a returned
// `str` as text/html (https://flask.palletsprojects.com/en/stable/quickstart/#about-responses: "If
// a string is returned, it's converted into a response object with the string as response body, a
// 200 OK status code and a text/html mimetype"), a dict or list as JSON, and a tuple as (body,
// status, headers); Django's HttpResponse defaults to text/html.

/** Functions routed to by a framework, by the text of their definition (decorators included). */
export const ROUTE_HANDLERS: Partial<Record<Language, RegExp>> = {
  // Flask and FastAPI route decorators, and Django views (a function whose first parameter is the request).
  python: new RegExp(`${ROUTE_DECORATOR.source}|\\bdef\\s+\\w+\\s*\\(\\s*request\\b`),
  // Laravel route closures and controller actions: a function that is handed the Request, or a
  // closure registered for a route (Route::get('/u/{id}', function ($id) { … })).
  php: new RegExp(String.raw`\bfunction\s*\w*\s*\([^)]*\bRequest\s+\$\w+|${LARAVEL_ROUTE_CLOSURE}`),
  // Spring MVC: a mapped method that returns a String body (in a @RestController, or with
  // @ResponseBody), which StringHttpMessageConverter writes as the type the client accepts (a
  // browser's text/html), unless `produces` names another
  // (https://docs.spring.io/spring-framework/reference/web/webmvc/mvc-controller/ann-methods/responsebody.html).
  // Sinatra: a route block's value is its body, served as text/html unless `content_type` names
  // another (https://sinatrarb.com/intro.html#return-values).
  ...(PAGE_ROUTE_BLOCKS.ruby === undefined ? {} : { ruby: PAGE_ROUTE_BLOCKS.ruby }),
  java: /@(?:Get|Post|Put|Delete|Patch|Request)Mapping\b(?![^)]*\bproduces\s*=\s*\{?\s*(?:"(?!text\/html)|MediaType\.(?!TEXT_HTML)))[\s\S]*\b(?:String|ResponseEntity\s*<\s*String\s*>)\s+\w+\s*\(/,
};

// What a Laravel route or controller answers that is not a page (https://laravel.com/docs/responses):
// views (Blade escapes `{{ }}`), redirects, downloads and files, streamed responses, and JSON:
// Router::toResponse (laravel/framework src/Illuminate/Routing/Router.php) sends an array, an
// Arrayable, Jsonable, ArrayObject or JsonSerializable (a model, a collection, a paginator) as a
// JsonResponse. A call yielding one counts only as the whole value (`User::find($id)`, not
// `User::find($id)->name`): `collect(…)`, `DB::select(…)` (an array of rows), a model's
// `all`/`find*`, or a query builder chain (`User::where(…)`, `DB::table(…)`) ended by a method that
// yields rows, a model or a paginator (`->get()`, `->first()`, `->paginate(15)`, `->pluck('name')`),
// not one that yields a column's text (`->value('name')`). Bounded, so a long line costs linear work.
const PHP_WHOLE_JSON_CALL = String.raw`(?:collect|DB::select|[A-Z]\w*::(?:all|find|findOrFail|findMany|findOrNew))\s*\((?![^;]{0,1000}\)\s*(?:->|\[|\.|\?|::))[^;]{0,1000}\)[\s);,]*$`;
const PHP_QUERY_RESULT = String.raw`(?:[A-Z]\w*::(?:query|where\w*|orderBy\w*|latest|oldest|with|select)\s*\(|DB::table\s*\()[^;]{0,1000}->\s*(?:get|paginate|simplePaginate|cursorPaginate|first|firstOrFail|find|findOrFail|findMany|pluck|toArray)\s*\([^();]*\)[\s);,]*$`;
const PHP_NOT_HTML_VALUE = String.raw`view\s*\(|redirect\s*\(|back\s*\(|to_route\s*\(|abort\s*\(|\[|array\s*\(|json_encode\s*\(|response\s*\(\s*\)\s*->\s*(?:json|download|file|streamDownload|view|noContent|redirectTo\w*)\b|(?:Response|Redirect|Inertia|View|Storage)::|[^;]{0,1000}->\s*(?:download|streamDownload|json)\s*\(|new\s+JsonResponse\b|\$\w+\s*->\s*(?:all|validated|only|except|collect|toArray|toJson)\s*\(|null\b|true\b|false\b|\d|${PHP_WHOLE_JSON_CALL}|${PHP_QUERY_RESULT}`;
/**
 * Where a Laravel arrow function's body starts (`fn ($id) => …`), unless its value is not a page. A
 * lookahead, not a line's `unless`, so two routes on one line are judged one by one.
 */
export const PHP_ARROW_PAGE_BODY = new RegExp(
  String.raw`(?<=\bfn\s*\([^()]*\)\s*(?::\s*\??[\w\\]+\s*)?=>\s*)(?!${PHP_NOT_HTML_VALUE})(?=\S)`,
);

/**
 * What a view returns that is not an HTML page built from its text: JSON (`jsonify`, a dict or list
 * literal, `json.dumps`), a redirect, a file, an escaping template, an abort, or a response whose
 * type is set to something else.
 */
export const NOT_HTML_RETURN: Readonly<Record<'python' | 'php' | 'java', RegExp>> = {
  python:
    /^\s*return\s+(?:jsonify|render_template|stream_template|redirect|send_file|send_from_directory|abort|url_for|json\.dumps|JsonResponse|FileResponse|StreamingResponse|RedirectResponse|HttpResponseRedirect|HttpResponseNotFound|render|Response\s*\([^)]*(?:mimetype|content_type|media_type)\s*=\s*["'](?!text\/html))\b|^\s*return\s+[{[]|^\s*return\s*$|^\s*return\s+(?:None|True|False|\d+)\s*$/,
  php: new RegExp(String.raw`^\s*return\s+(?:${PHP_NOT_HTML_VALUE})|^\s*return\s*;`),
  // A Spring view name or redirect (`"redirect:/home"`), no body, or JSON written by a mapper.
  java: /^\s*return\s+(?:"(?:redirect|forward):|null\s*;|ResponseEntity\s*\.\s*(?:noContent|notFound|badRequest|accepted|status\s*\([^)]*\)\s*\.\s*build)\b|[\w.]*(?:objectMapper|mapper|gson|Gson\(\))\s*\.\s*(?:writeValueAsString|toJson)\b)/,
};

/** Calls that build a response from a body and headers: only the body (the first argument, or a tuple's first item) is the page. */
export const RESPONSE_BUILDERS = /(?:^|\.)(?:make_response|Response|HttpResponse)$/;

/**
 * Template renderers that escape the values they are given (Jinja's autoescape in Flask): the page
 * carries only the template's own text, the receiver's (`template.render(...)`) or the first argument's.
 */
export const ESCAPING_RENDERERS: Partial<Record<Language, RegExp>> = {
  python: /^(?:render_template_string|render_template|render)$/,
  // nunjucks.render (autoescape is on by default), ejs.renderFile (`<%= %>`), pug.renderFile (`=`
  // and `#{}`): a template file's page. Renderers of source text (renderString, ejs.render of a
  // string) are left to the flow: a template the request wrote is template-injection's.
  js: /^(?:render|renderFile)$/,
};

/**
 * Template compilers whose result is a function that escapes what it is given: calling it yields
 * the page of the template's own text (pug.compile / compileFile, Handlebars.compile, ejs.compile,
 * nunjucks.compile). Not lodash's `_.template`, whose `<%= %>` does not escape.
 */
export const ESCAPING_COMPILERS: Partial<Record<Language, RegExp>> = {
  js: /(?:^|\.)(?:pug\.compile(?:File)?|[Hh]andlebars\.compile|ejs\.compile|nunjucks\.compile)$/,
};

/**
 * A response type set to something other than HTML before the body is sent: Express's
 * `res.type('json')` / `res.set('Content-Type', 'text/plain')`, Koa's `ctx.type = 'json'`, Node's
 * `res.setHeader('Content-Type', 'application/json')`, `writeHead(200, { 'Content-Type': … })`;
 * PHP's `header('Content-Type: application/json')`.
 */
export const NOT_HTML_CONTENT_TYPE: Readonly<Record<'js' | 'php', RegExp>> = {
  js: /\b(?:res|ctx|response)\.(?:type\s*(?:\(|=)|contentType\s*\()\s*["'`](?!(?:text\/)?html\b|\.html?\b)|["'`]content-type["'`]\s*(?:,|:)\s*["'`](?!text\/html)/i, // PHP's `header('Content-Type: application/json')`.
  // The look-ahead takes the spaces itself: `:\s*(?!text/html)` backtracks to `: ` and passes text/html.
  php: /\bheader\s*\(\s*["']Content-Type:(?!\s*text\/html)/i,
};

// Ruby. Sinatra: what a route block ends on is the page, and so is `body(x)` and `halt(status, x)`;
// JSON (`to_json`, `json`), a redirect or a `content_type` other than HTML is not. Rails: `render
// html:` escapes a string that is not html_safe and `render plain:`/`json:` are not HTML
// (https://guides.rubyonrails.org/layouts_and_rendering.html#using-render), so Rails' sinks are
// `html_safe`/`raw` (their own rule), `send_data` with an HTML type shown inline, and
// `content_tag`'s fourth argument `false`, which turns its escaping off
// (https://api.rubyonrails.org/classes/ActionView/Helpers/TagHelper.html#method-i-content_tag).

// Sinatra's halt (sinatra/sinatra README "Halting", lib/sinatra/base.rb `def halt(*response)`) takes a
// status, a body, headers or a template: `halt 410` and `halt 404 unless user` send no page of their
// own, `halt 404, 'Not found'` sends constant text, `halt erb(:missing)` a template; a trailing
// `if`/`unless` is the condition, not the body. `halt 400, "<p>#{q}</p>"` stays a page.
const SINATRA_HALT_WITHOUT_PAGE = String.raw`halt\s*\(?\s*(?:\d+\s*\)?\s*(?:$|(?:if|unless)\b)|(?:\d+\s*,\s*)?(?:'[^'\n]*'|"[^"#\n]*")\s*\)?\s*(?:$|(?:if|unless)\b)|(?:\d+\s*,\s*)?(?:erb|haml|slim|json|redirect)\b)`;

/** What a Sinatra route block ends on that is not an HTML page. */
export const RUBY_NOT_HTML = new RegExp(
  String.raw`\.to_json\b|^\s*(?:(?:json|JSON\.(?:generate|dump|pretty_generate)|redirect|send_file|erb|haml|slim|status|headers|content_type)\b|${SINATRA_HALT_WITHOUT_PAGE})`,
);

/** A `content_type` set to something other than HTML, a few lines above the block's value. */
export const RUBY_OTHER_TYPE = /\bcontent_type\s*\(?\s*(?::(?!html\b)\w+|["'](?!text\/html))/;

// Go: text/template does no HTML escaping; html/template "provides the same interface as
// text/template and should be used instead of text/template whenever the output is HTML"
// (https://pkg.go.dev/html/template). A text template executed into the ResponseWriter makes its
// data the page. With html/template imported unaliased, `template.` is the escaping one.

/** A Go file that imports the non-escaping template package. */
export const GO_TEXT_TEMPLATE_IMPORT = /"text\/template"/;

/** A Go file whose unaliased `template` is html/template. */
export const GO_HTML_TEMPLATE_UNALIASED = /^\s*(?:import\s+)?"html\/template"/m;

/** The type of a net/http handler's writer. */
export const GO_RESPONSE_WRITER_TYPE = /http\.ResponseWriter/;

// Ruby's ERB writes `<%= %>` as it is: ERB.new(template).result(binding) and result_with_hash escape
// nothing (https://docs.ruby-lang.org/en/3.3/ERB.html: escape with ERB::Util.html_escape). Sinatra's
// `erb :view` renders through Tilt, which escapes `<%= %>` only when erubi's `escape_html` is set:
// `set :erb, escape_html: true` (Sinatra README, "Available Template Languages").

/** A Sinatra app that turns ERB's escaping on for every view. */
export const SINATRA_ERB_ESCAPING =
  /\bset\s+:erb\s*,\s*(?::escape_html\s*=>|escape_html:)\s*true\b/;

/** An ERB template rendered with the variables in scope or a hash, its output not escaped. */
export const ERB_RESULT = /\.result(?:_with_hash)?\s*\(/;

/** A Sinatra view rendered with ERB (a named view; `erb "string"` is template injection). */
export const SINATRA_ERB_VIEW = /^\s*(?:\w+\s*=\s*)?erb\s*\(?\s*:\w+/;
