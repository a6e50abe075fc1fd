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

export const requiredText = (max: number) => text(max).refine((s) => s.trim().length > 0, 'Must not be empty');

/** Identifiers appear in URL paths, so they keep to characters that need no escaping there. */
export const identifier = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._~@:-]+$/, 'Use only letters, digits and . _ ~ @ : -');

/** An IANA time zone name (UTC included), returned in its canonical casing ("europe/paris" -> "Europe/Paris"). */
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
  .meta({ description: 'IANA time zone name, e.g. "Europe/Paris" or "UTC"', example: 'Europe/Paris' });

const knownZones = new Map(['UTC', ...Intl.supportedValuesOf('timeZone')].map((zone) => [zone.toLowerCase(), zone]));

/** The zone as named (aliases such as "US/Eastern" stay as given), in canonical casing where known. */
function canonicalTimeZone(name: string): string | undefined {
  const known = knownZones.get(name.toLowerCase());
  if (known) return known;
  // Intl also accepts UTC offsets ("+01:00"); those are not zone names.
  if (!/^[A-Za-z]/.test(name)) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name }); // aliases Intl knows but does not list
    return name;
  } catch {
    return undefined;
  }
}

export const isoDateTime = z.iso.datetime({ offset: true }).meta({ example: '2026-01-15T09:30:00.000Z' });

export const message = z.object({ message: z.string() });
