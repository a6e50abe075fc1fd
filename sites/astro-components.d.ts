// tsc does not read .astro files (Astro's language tools do): type their imports as Astro components.
declare module '*.astro' {
  const Component: import('astro/runtime/server/index.js').AstroComponentFactory;
  export default Component;
}
