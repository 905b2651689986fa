// The located JSON reader (JSONReader, JSONNode, JSONPointer, SourcePosition, JSONWriter) lives in WebLinks, the
// lightest module, so that every document format reads JSON one way: the manifest here, and the domain-association
// files in DomainClaims, which may depend on WebLinks only. Re-exported so a client of LinkRules sees the types it
// always saw.
@_exported import WebLinks
