/**
 * The canonical form of a signed URL (docs/marketplace.md "The signed URL's canonical form"), shared by the SDK,
 * which signs it, and the server, which verifies a signature of it. Proxies may re-encode what means the same
 * (`10:30` sent on as `10%3A30`); the canonical form undoes that, so a signature of it survives them.
 */

/**
 * Characters that mean the same to the server escaped or not: the unreserved characters of RFC 3986 and `:` `@` in
 * the path (the REST facade decodes exactly these before routing); in the query also `!$'()*,`, which mean nothing
 * in form parameters. Never decoded: what splits or escapes parameters (`&` `=` `+` `%`, and `;`, a separator to
 * some parsers), delimiters (`/` `?` `#`), spaces, controls and non-ASCII bytes.
 */
export const SAME_ESCAPED = { path: /[A-Za-z0-9\-._~:@]/, query: /[A-Za-z0-9\-._~:@!$'()*,]/ };

/** `part` with the escapes of the characters `same` matches decoded, and every other escape given to `other`. */
export const decodeEscapes = (part: string, same: RegExp, other = (escape: string) => escape) =>
  part.replace(/%[0-9A-Fa-f]{2}/g, (escape) => {
    const char = String.fromCharCode(parseInt(escape.slice(1), 16));
    return same.test(char) ? char : other(escape);
  });

const decodeSame = (part: string, same: RegExp) => decodeEscapes(part, same, (escape) => escape.toUpperCase());

/**
 * A request target (path + query) in canonical form: escapes of characters that mean the same either way are
 * decoded, every other escape is kept with upper-case hex (`%2f` -> `%2F`), raw characters are kept as they are.
 */
export function canonicalUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return decodeSame(url, SAME_ESCAPED.path);
  return `${decodeSame(url.slice(0, at), SAME_ESCAPED.path)}?${decodeSame(url.slice(at + 1), SAME_ESCAPED.query)}`;
}
