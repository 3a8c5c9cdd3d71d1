// The options that make an XML parser expand external entities or load DTDs, from each library's
// reference. Python: lxml's XMLParser (`resolve_entities`, `load_dtd`, `dtd_validation`,
// `no_network`), xml.sax's features (off by default since 3.7.1:
// https://docs.python.org/3/library/xml.sax.handler.html#xml.sax.handler.feature_external_ges),
// which minidom and pulldom inherit when handed that parser, and pyexpat's parameter-entity parsing
// and foreign DTD. xml.etree.ElementTree expands no external entity and has no switch for it.

/** Python parser options that switch external entities or DTD loading on. */
export const PYTHON_ENTITY_SWITCHES = {
  keywords: [
    'resolve_entities',
    'load_dtd',
    'dtd_validation',
    'no_network',
    'setfeature',
    'setparamentityparsing',
    'useforeigndtd',
  ],
  pattern: new RegExp(
    [
      String.raw`\b(?:resolve_entities|load_dtd|dtd_validation)\s*=\s*True\b`,
      String.raw`\bno_network\s*=\s*False\b`,
      String.raw`\.setFeature\s*\(\s*(?:[\w.]*\bfeature_external_[gp]es|(["'])http:\/\/xml\.org\/sax\/features\/external-(?:general|parameter)-entities\1)\s*,\s*(?:True|1)\s*\)`,
      String.raw`\.SetParamEntityParsing\s*\(\s*[\w.]*XML_PARAM_ENTITY_PARSING_(?:ALWAYS|UNLESS_STANDALONE)\b`,
      String.raw`\.UseForeignDTD\s*\(\s*(?:True|1)?\s*\)`,
    ].join('|'),
  ),
} as const;

// Node.js: libxmljs / libxmljs2 parse options (their ParserOptions typings: `noent` substitutes
// entities, `dtdload` loads the external subset, `dtdvalid` validates against it, `xinclude`
// loads included files) and libxml2-wasm's ParseOption flags of the same names. xml2js, sax,
// fast-xml-parser and @xmldom/xmldom expand no external entity and have no switch for it.

/** Node.js parser options that switch external entities, DTD loading or XInclude on. */
export const JS_ENTITY_SWITCHES = {
  keywords: ['noent', 'dtdload', 'dtdvalid', 'xinclude', 'xml_parse_'],
  pattern:
    /\b(?:noent|dtdload|dtdvalid|xinclude)\s*:\s*true\b|\bXML_PARSE_(?:NOENT|DTDLOAD|DTDVALID|XINCLUDE)\b/,
} as const;

// PHP: libxml's parse options (https://www.php.net/manual/en/libxml.constants.php: LIBXML_NOENT
// substitutes entities, LIBXML_DTDLOAD loads the external subset, LIBXML_DTDVALID validates
// against it, LIBXML_XINCLUDE runs XInclude), DOMDocument's substituteEntities and
// resolveExternals properties and its xinclude(), XMLReader's SUBST_ENTITIES / LOADDTD / VALIDATE
// parser properties, libxml_disable_entity_loader(false), and xml_parse's external entity handler.

/** PHP parser options that switch external entities, DTD loading or XInclude on. */
export const PHP_ENTITY_SWITCHES = {
  keywords: [
    'libxml_noent',
    'libxml_dtdload',
    'libxml_dtdvalid',
    'libxml_xinclude',
    'substituteentities',
    'resolveexternals',
    'xinclude',
    'setparserproperty',
    'libxml_disable_entity_loader',
    'xml_set_external_entity_ref_handler',
  ],
  pattern: new RegExp(
    [
      String.raw`\bLIBXML_(?:NOENT|DTDLOAD|DTDVALID|XINCLUDE)\b`,
      String.raw`->\s*(?:substituteEntities|resolveExternals)\s*=\s*(?:true|1)\b|->\s*xinclude\s*\(`,
      String.raw`->\s*setParserProperty\s*\(\s*XMLReader::(?:SUBST_ENTITIES|LOADDTD|VALIDATE)\s*,\s*(?:true|1)\b`,
      String.raw`\blibxml_disable_entity_loader\s*\(\s*false\s*\)|\bxml_set_external_entity_ref_handler\s*\(`,
    ].join('|'),
  ),
} as const;

// Java (JAXP, https://docs.oracle.com/en/java/javase/21/docs/api/java.xml/module-summary.html, and
// OWASP's XXE prevention sheet for the defaults): every JAXP factory reads DTDs and external entities
// unless told not to (DocumentBuilderFactory, SAXParserFactory, XMLInputFactory, TransformerFactory,
// SchemaFactory, XMLReaderFactory), and so do dom4j's SAXReader and JDOM's SAXBuilder. The switches that turn the risk back on after hardening are the
// SAX features for external entities and DTDs, StAX's properties and DOM's entity expansion.

/** Java parser factories and readers that expand external entities by default, as created. */
export const JAVA_XML_PARSERS: readonly string[] = [
  'DocumentBuilderFactory.newInstance',
  'DocumentBuilderFactory.newDefaultInstance',
  'DocumentBuilderFactory.newNSInstance',
  'SAXParserFactory.newInstance',
  'SAXParserFactory.newDefaultInstance',
  'SAXParserFactory.newNSInstance',
  'XMLInputFactory.newInstance',
  'XMLInputFactory.newFactory',
  'XMLInputFactory.newDefaultFactory',
  'TransformerFactory.newInstance',
  'TransformerFactory.newDefaultInstance',
  'SAXTransformerFactory.newInstance',
  'SchemaFactory.newInstance',
  'SchemaFactory.newDefaultInstance',
  'XMLReaderFactory.createXMLReader',
];

/** Java parser classes constructed directly (dom4j, JDOM). */
export const JAVA_XML_PARSER_CLASSES: readonly string[] = ['SAXBuilder', 'SAXReader'];

// Ruby: Nokogiri's ParseOptions (sparklemotion/nokogiri lib/nokogiri/xml/parse_options.rb at
// 0370fe33): NOENT substitutes entities and DTDLOAD loads external subsets ("UNSAFE to set"),
// DTDVALID validates against the DTD, XINCLUDE runs XInclude, DEFAULT_XSLT includes NOENT and DTDLOAD,
// and unsetting NONET (`nononet`) lets the parser fetch from the network; each as a constant or as
// the block's setter (`config.noent`). libxml-ruby's Parser::Options has the same constants
// (ext/libxml/ruby_xml_parser_options.c at 31b40010), and its global defaults
// `XML.default_substitute_entities`, `default_load_external_dtd` and `default_validity_checking`
// turn NOENT, DTDLOAD and DTDVALID on for every parser (ext/libxml/ruby_xml.c at 0bac9f75). REXML
// fetches no external entity, so it has no switch here. Nor have Ox and Oga, which expand no entity a
// document declares, whatever their options: Ox keeps a DOCTYPE as text (ohler55/ox ext/ox/parse.c at
// 569e58ec, read_doctype) and decodes only the predefined and numeric references (read_coded_chars);
// Oga lexes a DOCTYPE's inline rules as one token and decodes the five predefined entities and
// code points (yorickpeterse/oga lib/oga/xml/entities.rb at 9f71af40, DECODE_MAPPING).

/** Ruby parser options that switch entity substitution, DTD loading, XInclude or the network on. */
export const RUBY_ENTITY_SWITCHES = {
  keywords: [
    'noent',
    'dtdload',
    'dtdvalid',
    'xinclude',
    'nononet',
    'default_xslt',
    'default_substitute_entities',
    'default_load_external_dtd',
    'default_validity_checking',
  ],
  pattern:
    /\.(?:noent|dtdload|dtdvalid|xinclude|nononet)\b(?![?=])|(?<![A-Z_])(?:NOENT|DTDLOAD|DTDVALID|XINCLUDE|DEFAULT_XSLT)\b|\bdefault_(?:substitute_entities|load_external_dtd|validity_checking)\s*=\s*true\b/,
} as const;

/** Java options that switch external entities or DTDs on. */
export const JAVA_ENTITY_SWITCHES = {
  keywords: ['setfeature', 'setproperty', 'setexpandentityreferences'],
  pattern: new RegExp(
    [
      // SAX and Xerces features: external entities, external DTDs on; the DOCTYPE ban off.
      String.raw`\.setFeature\s*\(\s*"http:\/\/(?:xml\.org\/sax\/features\/external-(?:general|parameter)-entities|apache\.org\/xml\/features\/nonvalidating\/load-external-dtd)"\s*,\s*(?:true|Boolean\.TRUE)\s*\)`,
      String.raw`\.setFeature\s*\(\s*"http:\/\/apache\.org\/xml\/features\/disallow-doctype-decl"\s*,\s*(?:false|Boolean\.FALSE)\s*\)`,
      // StAX: external entities or DTDs supported.
      String.raw`\.setProperty\s*\(\s*(?:XMLInputFactory\.)?(?:IS_SUPPORTING_EXTERNAL_ENTITIES|SUPPORT_DTD|"javax\.xml\.stream\.(?:isSupportingExternalEntities|supportDTD)")\s*,\s*(?:true|Boolean\.TRUE)\s*\)`,
      String.raw`\.setExpandEntityReferences\s*\(\s*true\s*\)`,
    ].join('|'),
  ),
} as const;
