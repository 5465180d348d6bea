/** What Unpod sends that must never reach an item, a log or an error: a telephony carrier's secrets. */
import type { IDataObject } from 'n8n-workflow';

/**
 * The keys under which Unpod's provider credentials carry the carrier's secrets, in clear:
 * `api_key`, `api_secret`, and `meta_json` (a list of `{meta_key, meta_value}`, auth tokens among them).
 */
export const CARRIER_SECRET_KEYS = ['api_key', 'api_secret', 'meta_json'];

/** `value` without any carrier secret, at any depth (a credential inside a bridge's number too). */
export function withoutCarrierSecrets<T>(value: T): T {
	if (Array.isArray(value)) return value.map((v) => withoutCarrierSecrets(v)) as T;
	if (!value || typeof value !== 'object') return value;
	const copy: IDataObject = {};
	for (const [key, inner] of Object.entries(value as IDataObject)) {
		if (!CARRIER_SECRET_KEYS.includes(key)) copy[key] = withoutCarrierSecrets(inner);
	}
	return copy as T;
}
