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
