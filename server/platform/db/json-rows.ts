/**
 * Rows a statement aggregated with `json_agg` (one round trip for a record and its list). The drivers hand json
 * columns over parsed; a driver that gives the text is parsed here, so callers see the rows either way.
 */
export const aggregatedRows = <T>(value: unknown): T[] => (typeof value === 'string' ? JSON.parse(value) : value) as T[];
