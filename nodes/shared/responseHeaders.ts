/** What a response's headers say: one reader, whatever the case of their names, and how long to wait. */

/** A response header, whatever its case (`name` in lower case). */
export function header(headers: Record<string, unknown> | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
	return key === undefined ? undefined : String(headers[key]);
}

/** Seconds to wait, from Retry-After (seconds or an HTTP date) or X-RateLimit-Reset (epoch seconds). */
export function retryAfterSeconds(headers: Record<string, unknown> | undefined, now = Date.now()): number | undefined {
	const retryAfter = header(headers, 'retry-after');
	if (retryAfter !== undefined) {
		const seconds = Number(retryAfter);
		if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - now) / 1000));
	}
	const reset = Number(header(headers, 'x-ratelimit-reset'));
	if (Number.isFinite(reset) && reset > 0) return Math.max(0, Math.ceil(reset - now / 1000));
	return undefined;
}
