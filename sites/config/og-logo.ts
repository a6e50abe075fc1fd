import { CONTENT_TYPES, extensionOf } from '../builder/content-types.ts';
import { isExternal } from './schema/index.ts';

/** Image types a generated social preview image can embed as `og.logo`, by file extension. */
export const OG_LOGO_TYPES: Record<string, string> = Object.fromEntries(['png', 'jpg', 'jpeg', 'svg', 'gif'].map((ext) => [ext, CONTENT_TYPES[ext]!]));

/**
 * Why `og.logo` cannot go into generated images, or undefined: builds never fetch URLs, and only some image types
 * can be embedded. (A missing file is reported with the other files the configuration names.)
 */
export function ogLogoProblem(logo: string): string | undefined {
  if (isExternal(logo)) return '`og.logo` is a URL: generated images embed only files of the docs folder, so it is left out';
  if (!OG_LOGO_TYPES[extensionOf(logo)]) return '`og.logo` must be a PNG, JPEG, GIF or SVG file to be embedded (it is left out)';
  return undefined;
}
