import { z } from 'zod';

/**
 * Text PostgreSQL can store as given: well-formed UTF-16 (no lone surrogates) and no NUL characters,
 * which `text` columns reject.
 */
export const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => s.isWellFormed() && !s.includes('\0'), 'Must not contain NUL characters or unpaired surrogates');

const NOT_BLANK = 'Must not be empty';

/**
 * Text with something in it. `\S` is exactly what `trim()` keeps (both use ECMAScript's white space and line
 * terminators), so the check is a pattern JSON Schema carries; both checks fail with the one message.
 */
export const requiredText = (max: number) => text(max).min(1, NOT_BLANK).regex(/\S/, NOT_BLANK);

/**
 * Identifiers appear in URL paths, so they keep to characters that mean the same escaped or not, and
 * are never "." or ".." (which URL normalisation removes from a path).
 */
export const identifier = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._~@:-]+$/, 'Use only letters, digits and . _ ~ @ : -')
  .refine((id) => !/^\.+$/.test(id), 'Must not consist of dots only')
  // Both checks in one pattern for openapi.json (at least one character is not a dot), without a lookahead,
  // which generators of examples skip. The two checks stay, for their two messages.
  .meta({ pattern: '^[A-Za-z0-9._~@:-]*[A-Za-z0-9_~@:-][A-Za-z0-9._~@:-]*$' });

/** The zone names Intl lists, and UTC, in their listed casing. */
export const TIME_ZONES: readonly string[] = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
const knownZones = new Map(TIME_ZONES.map((zone) => [zone.toLowerCase(), zone]));

/**
 * An IANA time zone name (UTC included), returned in its canonical casing ("europe/paris" -> "Europe/Paris").
 * openapi.json lists TIME_ZONES: what clients should send. The server also takes them in any casing and the aliases
 * Intl accepts, which are not listed.
 */
export const timeZone = z
  .string()
  .max(64)
  .transform((name, ctx) => {
    const canonical = canonicalTimeZone(name);
    if (!canonical) {
      ctx.addIssue({ code: 'custom', message: 'Must be an IANA time zone name such as "Europe/Paris" or "UTC"' });
      return z.NEVER;
    }
    return canonical;
  })
  .meta({ id: 'TimeZone', description: 'IANA time zone name, e.g. "Europe/Paris" or "UTC"', example: 'Europe/Paris', enum: [...TIME_ZONES] });

/**
 * A zone Intl lists, in its listed casing ("europe/paris" -> "Europe/Paris"). Aliases Intl accepts but
 * does not list ("Asia/Kolkata", "US/Eastern") are kept as sent: resolving them would turn current
 * names into legacy ones ("Asia/Calcutta").
 */
export function canonicalTimeZone(name: string): string | undefined {
  const known = knownZones.get(name.toLowerCase());
  if (known) return known;
  // Intl also accepts UTC offsets ("+01:00"); those are not zone names.
  if (!/^[A-Za-z]/.test(name)) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    return undefined;
  }
}

export const isoDateTime = z.iso.datetime({ offset: true }).meta({ example: '2026-01-15T09:30:00.000Z' });

/** An ISO 8601 date-time a client sends: with a zone, and (in UTC) within years 1-9999, which PostgreSQL stores. */
export const dateTimeInput = isoDateTime.refine((value) => {
  const year = new Date(value).getUTCFullYear();
  return year >= 1 && year <= 9999;
}, 'Must be between years 0001 and 9999 (UTC)');

export const message = z.object({ message: z.string() });
