/** What must never reach an item, a log or an error: a telephony carrier's secrets Unpod sends, and fields dropped with them. */
import type { IDataObject } from 'n8n-workflow';

/**
 * The keys under which Unpod's provider credentials may carry the carrier's secrets: the February
 * source's `api_key`, `api_secret` and `meta_json` (a list of `{meta_key, meta_value}`, auth tokens
 * among them), in clear; OpenAPI 2.0.0's `auth_token`, which its answers leave out.
 */
export const CARRIER_SECRET_KEYS = ['api_key', 'api_secret', 'meta_json', 'auth_token'];

/**
 * `value` without any carrier secret, at any depth (a credential inside a bridge's number too).
 * The answer itself is left alone; what holds no secret is shared, not copied (a page of 100
 * tasks with their transcripts is read on every poll).
 */
export const withoutCarrierSecrets = <T>(value: T): T => withoutKeys(value, CARRIER_SECRET_KEYS);

/** `value` without the fields named `keys`, at any depth; what holds none of them is shared, not copied. */
export function withoutKeys<T>(value: T, keys: string[]): T {
	if (!value || typeof value !== 'object') return value;
	if (Array.isArray(value)) {
		let copy: unknown[] | undefined;
		value.forEach((inner, index) => {
			const clean = withoutKeys(inner, keys);
			if (clean === inner) return;
			copy ??= value.slice();
			copy[index] = clean;
		});
		return (copy ?? value) as T;
	}
	let copy: IDataObject | undefined;
	for (const [key, inner] of Object.entries(value as IDataObject)) {
		const secret = keys.includes(key);
		const clean = secret ? undefined : withoutKeys(inner, keys);
		if (!secret && clean === inner) continue;
		copy ??= { ...(value as IDataObject) };
		if (secret) delete copy[key];
		else copy[key] = clean;
	}
	return (copy ?? value) as T;
}

/** The shortest text taken for a secret when hiding it: shorter ones would blank common words of a message. */
const SHORTEST_HIDDEN = 6;

/** `value` with every one of `secrets` in its strings replaced by `[hidden]`, at any depth. */
export function withoutSecretText<T>(value: T, secrets: string[]): T {
	const hidden = secrets.filter((s) => s.length >= SHORTEST_HIDDEN);
	if (!hidden.length) return value;
	const scrub = (inner: unknown): unknown => {
		if (typeof inner === 'string') return hidden.reduce((text, s) => text.split(s).join('[hidden]'), inner);
		if (Array.isArray(inner)) return inner.map(scrub);
		if (inner && typeof inner === 'object') {
			return Object.fromEntries(Object.entries(inner as Record<string, unknown>).map(([k, v]) => [k, scrub(v)]));
		}
		return inner;
	};
	return scrub(value) as T;
}
