import { randomBytes } from 'crypto';

export const hex = (chars: number): string =>
	randomBytes(Math.ceil(chars / 2))
		.toString('hex')
		.slice(0, chars);

export const taskId = (): string => `T${hex(32)}`;
export const runId = (): string => `R${hex(32)}`;
export const objectId = (): string => hex(24);

export function slugify(name: string): string {
	const base = name
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 40);
	return `${base || 'bridge'}-${hex(6)}`;
}

/** The platform's timestamp format: ISO 8601 without zone, microseconds. */
export function isoNoZone(micros: number): string {
	const iso = new Date(Math.floor(micros / 1000)).toISOString();
	return `${iso.slice(0, 23)}${String(Math.floor(micros % 1000)).padStart(3, '0')}`;
}

/** The call-output format: `YYYY-MM-DD HH:MM:SS.ffffff`. */
export function callTime(ms: number): string {
	return isoNoZone(ms * 1000).replace('T', ' ');
}
