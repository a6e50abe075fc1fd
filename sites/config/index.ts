/** docs.json / docs.yaml: schema, loading with fallback to defaults, frontmatter, problems, /schema.json. */
export * from './schema/index.ts';
export * from './problems.ts';
export { CONFIG_FILES, MAX_CONFIG_BYTES, loadConfig, loadConfigSync, validateFrontmatter, type LoadedConfig, type LoadOptions, type ValidatedFrontmatter } from './load.ts';
export { checkConfigSemantics, sidebarGroups, type ConfigLocator } from './semantics.ts';
export { isInternal, normalizeRoute, routeOfFile } from './routes.ts';
export { docsJsonSchema, docsJsonSchemaText } from './json-schema.ts';
export { lineColumn, parseSource, type ParsedSource } from './parse.ts';
export { suggest, validateWithFallback, type FallbackResult, type FallbackSource } from './fallback.ts';
