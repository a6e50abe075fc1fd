/**
 * The documentation-site renderer as a library: the one module the rest of the project imports from sites/
 * (docs hosting, the server's /schema.json, scripts). What is behind it (config/, content/, check/, builder/,
 * src/) may change without them noticing; sites/README.md describes it.
 */

// Building a site, locally or once per commit for hosting.
export { buildSite, prepareSite, warmRenderer, BuildError, type BuildOptions, type BuildResult, type BuildProgress, type Problem } from './builder/index.ts';
export { buildHostedSite, hostedLlmsFullTxt, type HostedBuildResult, type SiteManifest } from './builder/hosted-build.ts';
export { cacheCompiledModules } from './builder/cache-folders.ts';
export { keepYoungGenerationSmall } from './builder/young-generation.ts';
export { fileStamp } from './builder/build-cache.ts';
/** `docs dev`'s server; loaded when called, so a process that only builds never loads Astro's dev server itself. */
export const devSite = async (...args: Parameters<typeof import('./builder/dev.ts').devSite>) => (await import('./builder/dev.ts')).devSite(...args);

// Serving a hosted build: placeholders resolved per response, URLs and paths of pages, redirect precedence.
export { needsResolving, resolveHosted, type Served } from './builder/hosted.ts';
export { markdownFile, markdownPath, routeUrl } from './builder/site-data.ts';
export { normalizeRoute, pathAnswer, type PathAnswer } from './config/routes.ts';
export { CONTENT_TYPES, extensionOf } from './builder/content-types.ts';
// Social images a hosted build describes and the host draws when first asked for.
export { cardKey, cardRenderer } from './builder/social-images.ts';
export type { CardInput } from './builder/social-card.ts';

// The configuration: its JSON Schema, and the chat panel's model providers (`agent`).
export { docsJsonSchemaText } from './config/json-schema.ts';
export { MODEL_PROVIDERS } from './config/schema/agent.ts';
