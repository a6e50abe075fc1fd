import { z } from 'zod';

/** A non-empty string (the spec's "string, min length 1"). */
export const text = () => z.string().min(1, 'Must not be empty');

/** `#RRGGBB`. */
export const hexColor = () => z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Must be a colour in the form #RRGGBB');

/** A root-relative path (`/guides/start`) or an external URL (`https://`, `http://`, `//`, `mailto:`). */
export const linkTarget = () => text();

/** True for URLs that leave the site: `http://`, `https://`, protocol-relative `//`, `mailto:`. */
export const isExternal = (href: string) => /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(href);
