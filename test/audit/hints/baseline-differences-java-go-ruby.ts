import type { ExpectedDifference } from './hint-baseline.test.js';

// The baseline differences the Java, Go and Ruby knowledge tables make, each argued in a line.
export const JAVA_GO_RUBY_DIFFERENCES: readonly ExpectedDifference[] = [
  {
    path: 'hint-corpus/xss/java-vuln-spring-responsebody.java',
    line: 9,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      'A @RestController method mapped to a route returns a String page built from a request parameter: Spring writes it as the HTML the browser accepts.',
  },
  {
    path: 'hint-corpus/command-execution/java-vuln-processbuilder-shell-varargs.java',
    line: 8,
    category: 'command-execution',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: ProcessBuilder given a shell, -c and a script built from the request, read as the list it runs.',
  },
  {
    path: 'hint-corpus/ldap-injection/java-vuln-spring-ldap-filter.java',
    line: 16,
    category: 'ldap-injection',
    change: 'added',
    severity: 'medium',
    reason:
      "New fixture: a filter string built from a request parameter handed to Spring LDAP's LdapTemplate.search.",
  },
  {
    path: 'hint-corpus/path-traversal/java-vuln-servlet-resource.java',
    line: 8,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: ServletContext.getResourceAsStream reads a web-application file the request names, now in the Java file table.',
  },
  {
    path: 'hint-corpus/path-traversal/java-vuln-spring-unannotated.java',
    line: 11,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: Spring binds an unannotated parameter of a mapped method from the request; it names the file opened.',
  },
  {
    path: 'hint-corpus/path-traversal/java-vuln-upload-original-name.java',
    line: 9,
    category: 'path-traversal',
    change: 'added',
    severity: 'high',
    reason:
      "New fixture: MultipartFile.getOriginalFilename is the name the client sent, used as the upload's path.",
  },
  {
    path: 'hint-corpus/weak-crypto/java-vuln-threadlocalrandom-reset.java',
    line: 5,
    category: 'weak-crypto',
    change: 'added',
    severity: 'high',
    reason:
      'New fixture: ThreadLocalRandom, a non-cryptographic generator, draws a password-reset code.',
  },
  {
    path: 'hint-corpus/xpath-injection/java-vuln-evaluate-expression.java',
    line: 10,
    category: 'xpath-injection',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: XPath.evaluateExpression (Java 9) is an XPath evaluation like evaluate.',
  },
  {
    path: 'hint-corpus/xss/java-vuln-servlet-output-stream.java',
    line: 9,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason: "New fixture: a servlet's output stream printing request text into a text/html page.",
  },
  {
    path: 'hint-corpus/xss/java-vuln-spring-string-return.java',
    line: 8,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      'New fixture: a @RestController method returns a String page built from an unannotated (request-bound) parameter.',
  },
  {
    path: 'hint-corpus/xxe/java-vuln-stax-entities-on.java',
    line: 8,
    category: 'xxe',
    change: 'added',
    severity: 'high',
    reason:
      "New fixture: StAX's IS_SUPPORTING_EXTERNAL_ENTITIES switched on, which the file's other setting does not undo.",
  },
  {
    path: 'hint-corpus/xxe/java-vuln-transformer.java',
    line: 7,
    category: 'xxe',
    change: 'added',
    severity: 'high',
    reason:
      'New fixture: TransformerFactory reads external DTDs and stylesheets unless told not to, now in the Java parser table.',
  },
  {
    path: 'hint-corpus/command-execution/go-vuln-shell-slice-spread.go',
    line: 10,
    category: 'command-execution',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: a slice that starts a shell with -c spread into exec.CommandContext, read as the list it runs.',
  },
  {
    path: 'hint-corpus/path-traversal/go-vuln-gin-file-attachment.go',
    line: 7,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      "New fixture: Gin's c.FileAttachment serves a path built from the query, now in the Go file table.",
  },
  {
    path: 'hint-corpus/path-traversal/go-vuln-pathvalue-removeall.go',
    line: 11,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: Request.PathValue (Go 1.22 route wildcards) is request input; os.RemoveAll is in the Go file table.',
  },
  {
    path: 'hint-corpus/trust-boundary/go-vuln-gorilla-session.go',
    line: 13,
    category: 'trust-boundary',
    change: 'added',
    severity: 'medium',
    reason: "New fixture: a form value stored in a gorilla/sessions session's Values.",
  },
  {
    path: 'hint-corpus/xss/go-vuln-gin-data-html.go',
    line: 11,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason: "New fixture: Gin's c.Data with a text/html type writes the query into the page.",
  },
  // Ruby (standard library, Rails, Sinatra).
  {
    path: 'hint-corpus/command-execution/rb-vuln-popen-shell-list.rb',
    line: 4,
    category: 'command-execution',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: IO.popen given an argument list that starts a shell with -c and a script built from the request, read as the list it runs (argv).',
  },
  {
    path: 'hint-corpus/ldap-injection/rb-vuln-net-ldap-construct.rb',
    line: 6,
    category: 'ldap-injection',
    change: 'added',
    severity: 'high',
    reason:
      "New fixture: net-ldap's Filter.construct parses a filter string built from a request parameter.",
  },
  {
    path: 'hint-corpus/ldap-injection/rb-vuln-net-ldap-construct.rb',
    line: 7,
    category: 'ldap-injection',
    change: 'added',
    severity: 'medium',
    reason:
      'The same parsed filter handed to search as `filter:`: the search is where the injected filter runs.',
  },
  {
    path: 'hint-corpus/ldap-injection/rb-vuln-net-ldap-eq.rb',
    line: 6,
    category: 'ldap-injection',
    change: 'added',
    severity: 'high',
    reason:
      "New fixture: net-ldap's Filter.eq does no escaping and reads a `*` in the request's value as a wildcard (lib/net/ldap/filter.rb).",
  },
  {
    path: 'hint-corpus/ldap-injection/rb-vuln-net-ldap-eq.rb',
    line: 7,
    category: 'ldap-injection',
    change: 'added',
    severity: 'medium',
    reason: 'The same unescaped filter handed to search as `filter:`, where the wildcard matches.',
  },
  {
    path: 'hint-corpus/path-traversal/rb-vuln-sinatra-route-capture.rb',
    line: 6,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      "New fixture: a Sinatra route block's parameter is the URL's capture, and it names the file sent.",
  },
  {
    path: 'hint-corpus/trust-boundary/rb-vuln-session-key.rb',
    line: 3,
    category: 'trust-boundary',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: the session key and value both come from the request (`session[params[:key]] = …`).',
  },
  {
    path: 'hint-corpus/trust-boundary/rb-vuln-session-params.rb',
    line: 3,
    category: 'trust-boundary',
    change: 'added',
    severity: 'medium',
    reason:
      "Rails' session had no trust-boundary row; a request parameter stored in it is now flagged, as Flask's and Django's are.",
  },
  {
    path: 'hint-corpus/xpath-injection/rb-vuln-nokogiri-xpath.rb',
    line: 6,
    category: 'xpath-injection',
    change: 'added',
    severity: 'high',
    reason: "New fixture: Nokogiri's at_xpath given a query interpolating a request parameter.",
  },
  {
    path: 'hint-corpus/xss/rb-vuln-render-inline.rb',
    line: 4,
    category: 'template-injection',
    change: 'added',
    severity: 'medium',
    reason:
      '`render inline:` compiles its string as an ERB template; one interpolating a request value is template injection, besides the XSS already flagged.',
  },
  {
    path: 'hint-corpus/xss/rb-vuln-sinatra-string.rb',
    line: 4,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: the string a Sinatra route block ends on is served as text/html.',
  },
  {
    path: 'hint-corpus/xxe/rb-vuln-nokogiri-noent.rb',
    line: 5,
    category: 'xxe',
    change: 'added',
    severity: 'high',
    reason: "New fixture: Nokogiri's `config.noent` substitutes entities, external ones included.",
  },
  {
    path: 'hint-corpus/xpath-injection/go-vuln-xmlquery-findone.go',
    line: 11,
    category: 'xpath-injection',
    change: 'added',
    severity: 'medium',
    reason:
      "New fixture: antchfx's xmlquery.FindOne runs an expression built from the query, now in the Go XPath row (medium: through a variable).",
  },
  {
    path: 'hint-corpus/xpath-injection/go-vuln-xpath-compile.go',
    line: 12,
    category: 'xpath-injection',
    change: 'added',
    severity: 'high',
    reason: "New fixture: antchfx/xpath's Compile of an expression built from a form value.",
  },
  {
    path: 'hint-corpus/ldap-injection/go-vuln-ldap-sprintf-filter.go',
    line: 12,
    category: 'ldap-injection',
    change: 'added',
    severity: 'medium',
    reason:
      "New fixture: go-ldap's NewSearchRequest given a filter fmt.Sprintf built from the query, unescaped (medium: through a variable).",
  },
  {
    path: 'hint-corpus/command-execution/java-vuln-runtime-shell-array.java',
    line: 12,
    category: 'command-execution',
    change: 'added',
    severity: 'high',
    reason:
      "New fixture: Runtime.exec of an array built by index as bash -c and a request-built script; the array form is read as argv, so only the program or a shell's script counts.",
  },
  {
    path: 'hint-corpus/weak-crypto/java-vuln-random-field-use.java',
    line: 4,
    category: 'weak-crypto',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: a java.util.Random field of a class named for invites, flagged where it is made (the class name is the purpose).',
  },
  {
    path: 'hint-corpus/weak-crypto/java-vuln-random-field-use.java',
    line: 13,
    category: 'weak-crypto',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: an invite code drawn with nextLong from a Random held in a field; the use is judged by what the field was assigned from.',
  },
  {
    path: 'hint-corpus/path-traversal/java-vuln-part-write.java',
    line: 11,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      "New fixture: Servlet's Part.write stores the upload at the client's submitted file name (medium: through a variable).",
  },
  {
    path: 'hint-corpus/xss/go-vuln-text-template.go',
    line: 21,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      'New fixture: a text/template (no HTML escaping) executed into the ResponseWriter with the query in its data (low: through a variable, as every request-html-response hint).',
  },
  {
    path: 'hint-corpus/xss/go-vuln-gin-html-trusted.go',
    line: 14,
    category: 'xss',
    change: 'added',
    severity: 'high',
    reason:
      "New fixture: Gin's c.HTML given a form value converted to template.HTML, which html/template does not escape.",
  },
  {
    path: 'hint-corpus/xpath-injection/go-vuln-xmlquery-findeach.go',
    line: 13,
    category: 'xpath-injection',
    change: 'added',
    severity: 'medium',
    reason:
      "New fixture: antchfx's xmlquery.FindEach runs an expression built from the query (medium: through a variable); its callback is not read as the expression.",
  },
  {
    path: 'hint-corpus/xpath-injection/go-vuln-xpath-compilewithns.go',
    line: 14,
    category: 'xpath-injection',
    change: 'added',
    severity: 'high',
    reason: "New fixture: antchfx/xpath's CompileWithNS of an expression built from a form value.",
  },
  {
    path: 'hint-corpus/ldap-injection/go-vuln-ldap-base-dn.go',
    line: 13,
    category: 'ldap-injection',
    change: 'added',
    severity: 'medium',
    reason:
      "New fixture: go-ldap's NewSearchRequest given a base DN built from the query without ldap.EscapeDN (medium: through a variable).",
  },
  {
    path: 'hint-corpus/xss/rb-vuln-sinatra-bare-variable.rb',
    line: 7,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      "New fixture: a Sinatra route block that ends on a variable holding request-built HTML, found at the block's end and shown on the variable (low: through a variable).",
  },
  {
    path: 'hint-corpus/xss/rb-vuln-erb-result.rb',
    line: 11,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: ERB#result(binding) escapes nothing, and the block read a request parameter into the binding it renders.',
  },
  {
    path: 'hint-corpus/xss/rb-vuln-sinatra-erb-view.rb',
    line: 5,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: a Sinatra erb view rendered without escape_html after a request parameter is put in an instance variable.',
  },
  {
    path: 'hint-corpus/xpath-injection/rb-vuln-rexml-elements.rb',
    line: 8,
    category: 'xpath-injection',
    change: 'added',
    severity: 'medium',
    reason:
      "New fixture: REXML's Elements#[] takes an XPath expression, here built from a parameter (medium: through a variable).",
  },
  {
    path: 'hint-corpus/xxe/rb-vuln-libxml-options-noent.rb',
    line: 5,
    category: 'xxe',
    change: 'added',
    severity: 'high',
    reason:
      "New fixture: libxml-ruby's Parser.string given Parser::Options::NOENT substitutes entities in the request body.",
  },
];
