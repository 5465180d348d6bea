/**
 * How Unpod's loosely typed values read: an object that may come as JSON text, a number that
 * may come as text. Pure; every reader of Unpod's answers uses these.
 */
import type { IDataObject } from 'n8n-workflow';

/** A JSON object: not null, not an array. */
export const isObject = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/** Text with something in it, trimmed; anything else, or only spaces, is null. */
export const textOf = (value: unknown): string | null =>
	typeof value === 'string' && value.trim() ? value.trim() : null;

/** A number, also one Unpod wrote as text (`"1357.35"`); anything else, or nothing, is null. */
export function numberOf(value: unknown): number | null {
	if (value === null || value === undefined || value === '' || typeof value === 'boolean') return null;
	const n = Number(value);
	return Number.isFinite(n) ? n : null;
}

/** An object, also one Unpod wrote as JSON text; anything else reads as empty. */
export function objectOf(value: unknown): IDataObject {
	if (isObject(value)) return value;
	if (typeof value === 'string' && value.trim().startsWith('{')) {
		try {
			const parsed: unknown = JSON.parse(value);
			if (isObject(parsed)) return parsed;
		} catch {
			// Not JSON after all: empty, as a missing object.
		}
	}
	return {};
}
