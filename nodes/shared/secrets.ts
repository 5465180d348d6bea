/** What Unpod sends that must never reach an item, a log or an error: a telephony carrier's secrets. */
import type { IDataObject } from 'n8n-workflow';

/**
 * The keys under which Unpod's provider credentials carry the carrier's secrets, in clear:
 * `api_key`, `api_secret`, and `meta_json` (a list of `{meta_key, meta_value}`, auth tokens among them).
 */
export const CARRIER_SECRET_KEYS = ['api_key', 'api_secret', 'meta_json'];

/**
 * `value` without any carrier secret, at any depth (a credential inside a bridge's number too).
 * The answer itself is left alone; what holds no secret is shared, not copied (a page of 100
 * tasks with their transcripts is read on every poll).
 */
export function withoutCarrierSecrets<T>(value: T): T {
	if (!value || typeof value !== 'object') return value;
	if (Array.isArray(value)) {
		let copy: unknown[] | undefined;
		value.forEach((inner, index) => {
			const clean = withoutCarrierSecrets(inner);
			if (clean === inner) return;
			copy ??= value.slice();
			copy[index] = clean;
		});
		return (copy ?? value) as T;
	}
	let copy: IDataObject | undefined;
	for (const [key, inner] of Object.entries(value as IDataObject)) {
		const secret = CARRIER_SECRET_KEYS.includes(key);
		const clean = secret ? undefined : withoutCarrierSecrets(inner);
		if (!secret && clean === inner) continue;
		copy ??= { ...(value as IDataObject) };
		if (secret) delete copy[key];
		else copy[key] = clean;
	}
	return (copy ?? value) as T;
}
