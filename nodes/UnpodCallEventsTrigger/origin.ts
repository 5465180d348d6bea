import { createHash, timingSafeEqual } from 'crypto';

/** The header Unpod Studio is told to send, unless the credential names another. */
export const DEFAULT_SECRET_HEADER = 'X-Unpod-Secret';

/** The shortest secret the node accepts: a guessable one protects nothing. */
export const MIN_SECRET_LENGTH = 16;

/**
 * Whether the header value Unpod sent is the secret, in constant time: both sides are hashed
 * first, so neither their content nor their length shows in how long the check takes.
 */
export function secretMatches(given: unknown, secret: string): boolean {
	const value = Array.isArray(given) ? given[0] : given;
	if (typeof value !== 'string' || !secret) return false;
	const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
	return timingSafeEqual(digest(value), digest(secret));
}

/** What is wrong with the credential's header name and secret, or undefined when they can be used. */
export function secretProblem(headerName: unknown, secret: unknown): string | undefined {
	if (typeof secret !== 'string' || !secret) return 'The credential has no Webhook Secret';
	if (secret.length < MIN_SECRET_LENGTH)
		return `The credential's Webhook Secret is shorter than ${MIN_SECRET_LENGTH} characters`;
	if (typeof headerName !== 'string' || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(headerName.trim())) {
		return "The credential's Webhook Header Name is not a valid HTTP header name";
	}
	return undefined;
}
