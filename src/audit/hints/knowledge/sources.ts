import type { Language } from '../detect-languages.js';

// Where request data enters a program, per language and framework, and what else comes from outside.

// PHP's php://input stream is the raw request body, and any file function reads it
// (https://www.php.net/manual/en/wrappers.php.php): file_get_contents, fopen, file, SplFileObject;
// readfile prints what it reads (https://www.php.net/manual/en/function.readfile.php), the body itself.
const PHP_INPUT_STREAM = String.raw`\b(?:file_get_contents|fopen|file|readfile|new\s+SplFileObject)\s*\(\s*["']php://input["']`;

/**
 * Request reads named by a string's contents (`file_get_contents('php://input')`). The flow reads
 * text whose string contents are blanked, so it matches these on the original text, where the call
 * itself is code. `REQUEST_INPUT` holds them too, for the readers of the original text.
 */
export const QUOTED_REQUEST_INPUT: Partial<Record<Language, RegExp>> = {
  php: new RegExp(PHP_INPUT_STREAM),
};

/** Expressions that read what an HTTP client sent, per language. */
export const REQUEST_INPUT: Partial<Record<Language, RegExp>> = {
  // Node's http (`req.url`, `req.headers`), Express's req (https://expressjs.com/en/5x/api.html#req),
  // Koa's ctx and ctx.request (koajs/koa docs/api/request.md), Next.js route handlers and pages
  // (`request.json()`, `nextUrl.searchParams`, `headers()`/`cookies()` of next/headers, `context.query`),
  // Angular's ActivatedRoute (the URL the browser was sent to), Lambda events.
  js: new RegExp(
    [
      String.raw`\breq\.(?:params|query|body|headers|rawHeaders|cookies|signedCookies|files?|originalUrl|url|path|rawBody)\b`,
      String.raw`\breq\.(?:get|header|param)\s*\(`,
      String.raw`\b(?:request|ctx|context)\.(?:params|query|body|cookies|files?)\b`,
      String.raw`\bctx\.(?:querystring|search|href|originalUrl|url|path|headers?|host|hostname)\b|\bctx\.get\s*\(`,
      String.raw`\bctx\.request\.(?:body|query|files?|querystring|search|headers?|href|url|path|rawBody)\b`,
      String.raw`\b(?:req|request)\.(?:json|formData|text)\s*\(\s*\)|\b(?:req|request)\.nextUrl\b|\brequest\.(?:url|headers)\b`,
      String.raw`\b(?:headers|cookies)\s*\(\s*\)\s*\)?\s*\.get\s*\(|\brouter\.query\b`,
      String.raw`\b(?:paramMap|queryParamMap)\s*\.\s*get\s*\(|\bsnapshot\.(?:params|queryParams|fragment)\b`,
      String.raw`\bevent\.(?:queryStringParameters|pathParameters|multiValueQueryStringParameters|body)\b|\bsearchParams\.get\s*\(`,
    ].join('|'),
  ),
  // `flask.request.args` and a Django class-based view's `self.request.GET` too.
  python:
    /\b(?:flask\.|self\.)?request\.(?:args|form|values|files|json|get_json|data|GET|POST|FILES|query_params|path_params|headers|cookies|body|match_info|query|rel_url)\b/,
  // Rails' params and ActionDispatch::Request (rails/rails actionpack/lib/action_dispatch/http/request.rb
  // at 006d68eb: GET/query_parameters, POST/request_parameters, raw_post, body, headers, authorization,
  // media_type, the header readers ENV_METHODS defines, and Rack::Request's get_header/fetch_header,
  // url, path and cookies that it includes), as Sinatra hands Rack::Request too.
  ruby: new RegExp(
    [
      String.raw`\bparams\s*\[|\bparams\.(?:fetch|require|permit|dig|to_unsafe_h|values_at|slice|to_h)\b`,
      String.raw`\brequest\.(?:params|parameters|query_parameters|request_parameters|path_parameters|GET|POST|query_string|body|headers|url|original_url|fullpath|original_fullpath|path|path_info|referer|referrer|user_agent|raw_post|cookies|env\s*\[\s*["'](?:HTTP_|QUERY_STRING|REQUEST_URI|PATH_INFO|ORIGINAL_FULLPATH|RAW_POST_DATA))`,
      String.raw`\brequest\.(?:authorization|accept(?:_charset|_encoding|_language)?|cache_control|from|negotiate|pragma|client_ip|x_forwarded_for|x_forwarded_host|origin|x_csrf_token|media_type|content_type)\b(?!\s*[=(])`,
      String.raw`\brequest\.(?:get_header|fetch_header)\s*\(|\bcookies\s*\[`,
    ].join('|'),
  ),
  // Plain PHP's superglobals, filter_input and the request-header functions
  // (https://www.php.net/manual/en/reserved.variables.php); Laravel's Request
  // (https://laravel.com/docs/requests: input, query, the typed string/str readers, dynamic
  // properties, the request() helper and facade) and the Symfony ParameterBags under it
  // ($request->query->get(...)). Its integer/boolean/float/date readers are casts, not text.
  php: new RegExp(
    [
      String.raw`\$_(?:GET|POST|REQUEST|COOKIE|FILES|SERVER)\b|\$HTTP_RAW_POST_DATA\b`,
      String.raw`\bfilter_input(?:_array)?\s*\(\s*INPUT_(?:GET|POST|COOKIE|SERVER|REQUEST)\b|\b(?:getallheaders|apache_request_headers)\s*\(`,
      String.raw`\$request->(?:input|get|query|post|file|allFiles|all|route|header|headers|cookie|only|except|json|string|str|collect|keys|getContent|path|url|fullUrl|fullUrlWithQuery|segment|segments|validated|safe|bearerToken|userAgent|server|old)\s*\(`,
      String.raw`\$request->(?:query|request|cookies|files|server|headers|attributes)\s*->`,
      String.raw`\$request->(?!(?:user|session|method|ip|integer|boolean|float|date|enum|has|filled|missing|is|isMethod|wantsJson|expectsJson|ajax|secure|validate)\b)[a-z_]\w*\b(?!\s*(?:\(|->|=[^=>]))`,
      String.raw`\brequest\s*\(\s*(?:\)\s*->|[^)\s])|\b(?:Request|Input)::(?:input|get|query|post|all|only|except|cookie|header|file|json|string|str|route)\s*\(`,
      String.raw`\$this->request->`,
      PHP_INPUT_STREAM,
    ].join('|'),
  ),
  // Servlet's HttpServletRequest and Part, Spring's MultipartFile and WebFlux's ServerHttpRequest.
  java: /\.getParameter(?:Values|Map|Names)?\s*\(|\.(?:getOriginalFilename|getSubmittedFileName|getRequestURL|getQueryParams)\s*\(|\.getQueryString\s*\(|\.getPathInfo\s*\(|\.getRequestURI\s*\(|\.getHeaders?\s*\(|\.getHeaderNames\s*\(|\.getInputStream\s*\(|\.getReader\s*\(|\.getCookies\s*\(|\.getParts?\s*\(/,
  // net/http's Request (https://pkg.go.dev/net/http#Request: PathValue, Cookie, FormFile, …) and
  // Gin's Context (https://pkg.go.dev/github.com/gin-gonic/gin#Context: GetQuery, QueryMap, GetHeader, …).
  go: /\b(?:r|req|request|c\.Request)\.(?:PathValue|Cookie|Cookies|FormFile|Referer|UserAgent)\s*\(|\b(?:r|req|request|c\.Request)\.(?:MultipartForm|RequestURI)\b|\bc\.(?:GetQuery|QueryArray|GetQueryArray|QueryMap|GetQueryMap|DefaultPostForm|GetPostForm|PostFormArray|PostFormMap|FormFile|GetHeader|Cookie|GetRawData)\s*\(|\br\.URL\.(?:Query|Path|RawQuery)\b|\.(?:Form|PostForm)Value\s*\(|\br\.(?:Form|PostForm|Body)\b|\bmux\.Vars\s*\(|\bc\.(?:Param|Query|PostForm|DefaultQuery|QueryParam|FormValue)\s*\(|\bchi\.URLParam\s*\(|\br\.Header\.Get\s*\(|\bctx\.(?:Param|Query|FormValue)\s*\(/,
  csharp:
    /\bRequest\.(?:Query|Form|QueryString|Params|Headers|Cookies|Body|RouteValues|Path)\b|\bHttpContext\.Request\b/,
  perl: /\bparam\s*\(|->(?:url_)?param\s*\(|\$ENV\{['"]?(?:QUERY_STRING|REQUEST_URI|HTTP_\w+)|\$(?:cgi|q)->(?:param|Vars)\b/,
};

// Parameters bound from the request by a framework annotation: `@RequestParam String name`, `[FromQuery] string name`.
export const BOUND_PARAMETER: Partial<Record<Language, RegExp>> = {
  java: /@(?:RequestParam|PathVariable|RequestHeader|RequestBody|CookieValue|RequestPart|MatrixVariable|ModelAttribute)\b(?:\([^)]*\))?\s+(?:final\s+)?[\w<>[\].?]+\s+(\w+)/g,
  csharp: /\[From(?:Query|Body|Route|Form|Header)\b(?:\([^)]*\))?\]\s*[\w<>[\].?]+\s+(\w+)/g,
};

// Getter methods of a request object whose result is what the client sent (`request.getParameter("a")`).
export const REQUEST_GETTERS =
  /^(?:get\w*(?:Param|Header|Cookie|Query|Body|Input|Part|Path|Uri|URI|Url|URL)\w*|param|header|cookie|query|input|body)$/;

// Data a program receives from outside besides requests: arguments, environment, browser state.
export const EXTERNAL_INPUT =
  /^(?:process\.(?:argv|env)|sys\.argv|os\.(?:environ|Args|Getenv|getenv)|System\.(?:getenv|getProperty|in)|ARGV|ENV|\$argv|\$_ENV|location|window\.location|document\.(?:location|cookie|URL|referrer)|localStorage|sessionStorage|navigator|Environment\.GetEnvironmentVariable)\b/;

// Parts of a request a handler may destructure: `({ params, query }: Request, res)`.
export const REQUEST_PARTS = /^(?:params|query|body|headers|cookies|files|file|signedCookies)$/;
// Annotations that bind a parameter from the request (Spring, JAX-RS, ASP.NET).
export const BINDING_ANNOTATION =
  /@(?:RequestParam|PathVariable|RequestHeader|RequestBody|CookieValue|RequestPart|ModelAttribute|QueryParam|PathParam|FormParam|HeaderParam|MatrixParam)\b|\[From(?:Query|Body|Route|Form|Header)\b/;
// Laravel injects a route's `{placeholders}` into the parameters of its closure, or of the
// controller method it names, by order (https://laravel.com/docs/routing#route-parameters); a
// class-typed parameter is the container's (`Request $request`) or a model bound by id (route model
// binding), and an `int`/`float`/`bool` one is cast by PHP, so only an untyped, `string` or `mixed`
// parameter holds the URL's text. Lumen's `$router->get(…)` registers routes alike. Bounded, so a
// file of unclosed route calls costs a line's work per call.
const LARAVEL_ROUTE = String.raw`(?:\bRoute::|\$router->)(?:get|post|put|patch|delete|options|any|match)\s*\([^;]{0,400}?`;
// A closure (`function ($id) {`) or an arrow function (`fn ($id) => …`) handed to a route.
export const LARAVEL_ROUTE_CLOSURE = String.raw`${LARAVEL_ROUTE}\b(?:function|fn)\s*\(`;
/**
 * Frameworks that bind unannotated handler parameters: the route that maps a function (tested on its
 * header), the parameters it binds, and route registrations naming a handler method elsewhere in the
 * file (group 1 the class, group 2 the method: `[UserController::class, 'show']`).
 */
export const UNANNOTATED_BOUND: Partial<
  Record<Language, { route: RegExp; parameter: RegExp; targets?: readonly RegExp[] }>
> = {
  php: {
    route: new RegExp(LARAVEL_ROUTE_CLOSURE),
    parameter: /^\s*(?:\??(?:string|mixed)\s+)?\$\w+\s*(?:=[^=][\s\S]*)?$/,
    targets: [
      new RegExp(
        String.raw`${LARAVEL_ROUTE}\[\s*\\?(?:\w+\\)*(\w+)::class\s*,\s*["'](\w+)["']\s*\]`,
      ),
      new RegExp(String.raw`${LARAVEL_ROUTE}["'](?:\w+\\{1,2})*(\w+)@(\w+)["']`),
    ],
  },
  // Spring MVC binds a mapped method's parameters that carry no annotation from the request too: a
  // simple type as a request parameter, any other as a model attribute filled from the parameters
  // (https://docs.spring.io/spring-framework/reference/web/webmvc/mvc-controller/ann-methods/arguments.html,
  // "Any other argument"), except the types the framework itself supplies.
  java: {
    route: /@(?:Get|Post|Put|Delete|Patch|Request)Mapping\b/,
    parameter:
      /^\s*(?:final\s+)?(?!(?:HttpServletRequest|HttpServletResponse|ServletRequest|ServletResponse|HttpSession|WebRequest|NativeWebRequest|Model|ModelMap|ModelAndView|RedirectAttributes|BindingResult|Errors|SessionStatus|Principal|Authentication|Locale|TimeZone|ZoneId|HttpMethod|UriComponentsBuilder|InputStream|OutputStream|Reader|Writer|PushBuilder|ServerHttpRequest|ServerHttpResponse|ServerWebExchange|WebSession)\b)[\w.]+(?:<[^()]*>)?(?:\[\])?\s+\w+\s*$/,
  },
};
// Routes written as blocks (Sinatra: `get '/files/:name' do |name|`): the flow reads the block as a
// function, and its parameters are the route's captures. The verbs are Sinatra::Base's route
// methods (sinatra/sinatra lib/sinatra/base.rb at c496254f: get, put, post, delete, head, options,
// patch, link, unlink). Group 1 is the indent, group 2 the verb, group 3 the block's parameters.
function routeBlock(verbs: readonly string[]): RegExp {
  return new RegExp(
    String.raw`^([ \t]*)(${verbs.join('|')})[ \t(][^\n]*?[ \t]do[ \t]*(?:\|([^|\n]*)\|)?[ \t]*$`,
    'm',
  );
}
const SINATRA_VERBS = ['get', 'post', 'put', 'patch', 'delete', 'options', 'link', 'unlink'];
export const ROUTE_BLOCKS: Partial<Record<Language, RegExp>> = {
  ruby: routeBlock([...SINATRA_VERBS, 'head']),
};
/** Route blocks whose value is sent as the body (a HEAD answer has none). */
export const PAGE_ROUTE_BLOCKS: Partial<Record<Language, RegExp>> = {
  ruby: routeBlock(SINATRA_VERBS),
};
// A Python function a web framework routes requests to: its parameters come from the URL or query.
export const ROUTE_DECORATOR =
  /@\w+(?:\.\w+)*\.(?:route|get|post|put|delete|patch|api_route|websocket)\s*\(/;
/**
 * Functions a framework routes requests to, per language, tested on the function's header: every
 * parameter comes from the URL or query (a Flask or FastAPI route decorator, a Sinatra route block).
 */
export const ROUTED_FUNCTIONS: Partial<Record<Language, RegExp>> = {
  python: ROUTE_DECORATOR,
  ...(ROUTE_BLOCKS.ruby === undefined ? {} : { ruby: ROUTE_BLOCKS.ruby }),
};
/**
 * Views recognised by their first parameter, per language, whose later parameters are the URL's
 * captures: a Django view takes the request first (https://docs.djangoproject.com/en/5.0/topics/http/urls/,
 * "How Django processes a request": the view is called with the HttpRequest, then the captured values).
 */
export const REQUEST_FIRST_VIEWS: Partial<Record<Language, RegExp>> = {
  python: /^\s*request\b/,
};
// Parameters of a routed view that a framework fills with something other than request data.
export const NOT_FROM_REQUEST =
  /^(?:self|cls|request|req|db|session|current_user|background_tasks|response)$/;
// A handler's parameter list: a typed Express `Request`, or a response or `next` beside it.
export const HANDLER_SIGNATURE =
  /\}\s*:\s*(?:express\.)?Request\b|,\s*(?:res|response|reply|next|h)\b/;
// A FastAPI parameter filled by a dependency (`user = Depends(current_user)`), not by the request.
export const INJECTED_DEPENDENCY = /Depends\s*\(/;

/** Names of the request object itself: passed whole into a wrapper, it makes the wrapper a source. */
export const REQUEST_OBJECTS: Partial<Record<Language, RegExp>> = {
  js: /^(?:req|request)$/,
  java: /^(?:request|req|httpRequest|servletRequest|httpServletRequest)$/,
  csharp: /^(?:Request|request)$/,
  go: /^(?:r|req|request)$/,
  php: /^\$request$/,
  python: /^request$/,
  ruby: /^request$/,
};

// Reads whose values can hold objects or arrays (JSON bodies, bracketed query strings, PHP and Rails params).
export const STRUCTURED_READS: Partial<Record<Language, RegExp>> = {
  js: /\b(?:req|request|ctx|context)(?:\.request)?\.(?:body|query|files?)\b|\bevent\.body\b/,
  python: /\brequest\.(?:json|get_json|data|form|values)\b/,
  php: /\$_(?:GET|POST|REQUEST|COOKIE|FILES)\b|\$request->(?:input|all|post|query|json)\b/,
  ruby: /\bparams\b/,
};

// Archive entry names are untrusted input too (zip slip), in files that open archives.
export const ARCHIVE_INPUT: Partial<Record<Language, { library: RegExp; reads: RegExp }>> = {
  js: {
    library: /\b(?:adm-zip|unzipper|yauzl|jszip|tar-stream|tar|decompress|node-stream-zip)\b/,
    reads: /\.getEntries\s*\(|\.(?:entryName|fileName)\b|\bentry\.path\b|\bheader\.name\b/,
  },
  python: {
    library: /\b(?:zipfile|tarfile)\b/,
    reads: /\.(?:namelist|infolist|getmembers|getnames)\s*\(/,
  },
  java: {
    library: /\bjava\.util\.zip\b|\bZip(?:Input|File|Entry)|\bTarArchive/,
    reads: /\.getNextEntry\s*\(|\.getNextTarEntry\s*\(|\.entries\s*\(\s*\)/,
  },
  go: { library: /"archive\/(?:zip|tar)"/, reads: /\b\w+\.File\b(?!\s*\()|\.Next\s*\(\s*\)/ },
  php: { library: /\bZipArchive\b|\bPharData\b/, reads: /->getNameIndex\s*\(|->statIndex\s*\(/ },
  ruby: {
    library: /\bZip::File\b|\bGem::Package::TarReader\b/,
    reads: /\bZip::File\.open\b|\.each_entry\b/,
  },
};
