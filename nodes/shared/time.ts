import type { IDataObject } from 'n8n-workflow';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/**
 * Unpod writes timestamps with Python's `isoformat()` (`2026-02-16T14:55:49.123456`, no zone,
 * UTC); call outputs use a space instead of the `T`; newer answers end in `Z`. Returns epoch
 * ms, or undefined when the value is not such a timestamp.
 */
export function platformTime(value: unknown): number | undefined {
	if (typeof value !== 'string') return undefined;
	const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:[.,](\d+))?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(
		value.trim(),
	);
	if (!match) return undefined;
	const [, date, time, fraction = '', zone] = match;
	const ms = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
	const offset =
		!zone || zone.toUpperCase() === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
	const parsed = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}${ms}${offset}`);
	return Number.isNaN(parsed) ? undefined : parsed;
}

/** A platform timestamp as ISO 8601 in UTC (`2026-02-16T14:55:49.123Z`); other values as they are. */
export function isoTime(value: unknown): IDataObject[string] {
	const ms = platformTime(value);
	return ms === undefined ? (value as IDataObject[string]) : new Date(ms).toISOString();
}

/**
 * A date a user gave (an n8n date field, an expression) as epoch ms. A date without a zone
 * is read as UTC, as the platform's own are.
 */
export function userTime(value: unknown): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'number') return value;
	if (typeof value === 'object' && typeof (value as { toMillis?: unknown }).toMillis === 'function') {
		return (value as { toMillis: () => number }).toMillis();
	}
	if (value instanceof Date) return value.getTime();
	const text = String(value).trim();
	const platform = platformTime(text);
	if (platform !== undefined) return platform;
	const parsed = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
	return Number.isNaN(parsed) ? undefined : parsed;
}
