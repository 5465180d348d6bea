/**
 * Where the user's secrets may go, decided on addresses alone (pure): the credential's headers
 * only to the Base URL's origin, plain http only inside one's own network, a recording fetched
 * from an internal address only for a credential that is itself internal, and a redirect
 * followed with the credential only while it stays at home.
 */

/** An IPv4 address as its four numbers, or undefined when `host` is not one. */
function ipv4(host: string): number[] | undefined {
	const parts = host.split('.');
	if (parts.length !== 4) return undefined;
	const numbers = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
	return numbers.every((n) => n >= 0 && n <= 255) ? numbers : undefined;
}

/** Loopback, private (RFC 1918, shared 100.64/10), link-local or unspecified. */
function internalIpv4([a, b]: number[]): boolean {
	return (
		a === 0 ||
		a === 10 ||
		a === 127 ||
		(a === 100 && b >= 64 && b <= 127) ||
		(a === 169 && b === 254) ||
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168)
	);
}

/** The 16-bit groups of an IPv6 address (brackets off), or undefined when it is not one. */
function ipv6Groups(host: string): number[] | undefined {
	if (!host.includes(':')) return undefined;
	let text = host;
	// An IPv4 tail (::ffff:10.0.0.1) as two groups.
	const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
	if (tail) {
		const v4 = ipv4(tail[1]);
		if (!v4) return undefined;
		text = `${text.slice(0, -tail[1].length)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
	}
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const groupsOf = (part: string) => (part ? part.split(':') : []);
	const head = groupsOf(halves[0]);
	const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
	const missing = 8 - head.length - rest.length;
	if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
	const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
	if (!all.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
	return all.map((group) => parseInt(group, 16));
}

/**
 * ::1, ::, unique local fc00::/7, link-local fe80::/10, NAT64's local-use 64:ff9b:1::/48, and
 * IPv4 addresses carried in IPv6: mapped (::ffff:0:0/96), compatible (::/96), NAT64
 * (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32, the client's address inverted).
 */
function internalIpv6(groups: number[]): boolean {
	const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
	const v4 = (high: number, low: number) => internalIpv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
	if (zeroUpTo(7) && groups[7] <= 1) return true;
	if ((groups[0] & 0xfe00) === 0xfc00 || (groups[0] & 0xffc0) === 0xfe80) return true;
	if (groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 1) return true;
	const mapped = zeroUpTo(5) && (groups[5] === 0xffff || groups[5] === 0);
	const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
	if (mapped || nat64) return v4(groups[6], groups[7]);
	if (groups[0] === 0x2002) return v4(groups[1], groups[2]);
	if (groups[0] === 0x2001 && groups[1] === 0) return v4(groups[6] ^ 0xffff, groups[7] ^ 0xffff);
	return false;
}

/**
 * Whether `hostname` (as `URL.hostname` gives it: IPv4 in dotted form whatever way it was
 * written, IPv6 in brackets) names this machine or a private network: `localhost` and its
 * subdomains, a loopback, private, link-local or unspecified address. A name that merely
 * resolves to one is not seen here: n8n's own SSRF protection (2.41 and later) resolves names.
 */
export function isInternalHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	const v4 = ipv4(host);
	if (v4) return internalIpv4(v4);
	const v6 = host.startsWith('[') && host.endsWith(']') ? ipv6Groups(host.slice(1, -1)) : undefined;
	return v6 ? internalIpv6(v6) : false;
}

const parsed = (url: string): URL | undefined => {
	try {
		return new URL(url);
	} catch {
		return undefined;
	}
};

/**
 * Why the credential's Base URL may not carry the API token, or undefined when it may: it must
 * be an http(s) address, and plain http only to this machine or a private network, where
 * nobody on the way reads it.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	const url = parsed(baseUrl.trim());
	if (!url || !['http:', 'https:'].includes(url.protocol))
		return `The Base URL "${baseUrl}" of the Unpod credential is not an http(s) address, e.g. https://unpod.ai`;
	if (url.protocol === 'http:' && !isInternalHost(url.hostname))
		return `The Base URL of the Unpod credential uses plain http to ${url.host}: the API token would travel unencrypted. Use https://, or plain http only to localhost or a private network address.`;
	return undefined;
}

/**
 * Where a request goes: `url` joined to `baseURL` as n8n's HTTP client (axios) joins them. An
 * address with a scheme, or one starting with `//` (another host, the base's scheme), is not
 * joined: `//example.com/x` leaves the Base URL's host.
 */
export function requestTarget(url: string, baseURL?: string): string {
	if (/^[a-z][a-z0-9+.-]*:/i.test(url) || !baseURL) return url;
	if (url.startsWith('//')) return `${parsed(baseURL)?.protocol ?? 'https:'}${url}`;
	return `${baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

/** Whether `url` is at `baseUrl`'s origin: scheme, host and port alike. */
export function atOrigin(url: string, baseUrl: string): boolean {
	const target = parsed(url);
	const base = parsed(baseUrl);
	return !!target && !!base && target.origin === base.origin;
}

/**
 * Why a recording at `url` may not be fetched, or undefined when it may: an http(s) address,
 * and not on this machine or a private network unless the credential's own Base URL is (the
 * local server, a private deployment). An AI agent can be told any URL.
 */
export function downloadProblem(url: string, baseUrl: string): string | undefined {
	const target = parsed(url);
	if (!target || !['http:', 'https:'].includes(target.protocol))
		return `The recording URL "${url}" is not an http(s) address`;
	const base = parsed(baseUrl);
	if (isInternalHost(target.hostname) && !(base && isInternalHost(base.hostname)))
		return `The recording URL points at ${target.hostname}, an address on this machine or a private network: refused, as recordings live on Unpod's or a storage host's public address`;
	return undefined;
}

/** At most this many redirects are followed for one request. */
export const MAX_REDIRECTS = 5;

/** Where a redirect answer's `Location` leads from `from`, absolute; undefined when it names no address. */
export function redirectTarget(location: unknown, from: string): string | undefined {
	if (typeof location !== 'string' || !location.trim()) return undefined;
	try {
		return new URL(location.trim(), from).toString();
	} catch {
		return undefined;
	}
}
