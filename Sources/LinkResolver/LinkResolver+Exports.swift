// The resolver's extension API (the stages' protocols and contexts, `ResolveRequest`, `CacheKey`, `Cacheability`)
// lives in the light LinkResolution, which every stage imports without JavaScriptCore; whoever imports the resolver
// gets it too, as before it moved.
@_exported import LinkResolution
