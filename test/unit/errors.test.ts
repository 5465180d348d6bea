import { describeUnpodError, formatApiErrors, retryAfterSeconds } from '../../nodes/shared/errors';

describe('formatApiErrors', () => {
	test('renders a string as it is', () => {
		expect(formatApiErrors('Pilot not found')).toBe('Pilot not found');
	});
	test("reads the detail of a service's JSON answer passed on as text, and keeps other text", () => {
		expect(formatApiErrors('{"detail": "Run R1 not found"}')).toBe('Run R1 not found');
		expect(formatApiErrors('{not json')).toBe('{not json');
		expect(formatApiErrors('{"code": 3}')).toBe('{"code": 3}');
	});
	test('renders field -> messages objects, nested documents included', () => {
		expect(
			formatApiErrors({
				name: ['This field is required.'],
				documents: [{}, { contact_number: ['Enter a valid number.', 'Too short.'] }],
			}),
		).toBe('name: This field is required.; documents[1].contact_number: Enter a valid number. Too short.');
	});
	test('renders nothing for empty values', () => {
		expect(formatApiErrors(undefined)).toBe('');
		expect(formatApiErrors(null)).toBe('');
		expect(formatApiErrors({})).toBe('');
	});
});

describe('describeUnpodError', () => {
	test('a 2xx JSON answer is a success', () => {
		expect(describeUnpodError({ statusCode: 200, body: { data: [] } })).toBeUndefined();
		expect(describeUnpodError({ statusCode: 201, body: { data: {} } })).toBeUndefined();
	});
	test('206 is a business failure with the API message and errors', () => {
		const d = describeUnpodError({
			statusCode: 206,
			body: { message: 'Task creation failed', errors: { pilot: ['This field is required.'] } },
		});
		expect(d?.message).toBe('Task creation failed: pilot: This field is required.');
		expect(d?.httpCode).toBe('206');
	});
	test('401 says the token is missing or wrong, 403 names the headers', () => {
		expect(describeUnpodError({ statusCode: 401, body: { message: 'Invalid token.' } })?.message).toMatch(
			/token.*missing or wrong/,
		);
		const forbidden = describeUnpodError({ statusCode: 403, body: { message: 'Nope' } });
		expect(forbidden?.message).toBe('Access denied by Unpod: Nope');
		expect(forbidden?.description).toMatch(/Org-Handle/);
		expect(forbidden?.description).toMatch(/Product-ID/);
	});
	test('404 with a bare message names the subject', () => {
		expect(describeUnpodError({ statusCode: 404, body: { message: 'Agent not found' } }, 'agent "x"')?.message).toBe(
			'Agent not found: agent "x"',
		);
	});
	test('429 says when to retry', () => {
		const d = describeUnpodError({ statusCode: 429, body: { message: 'throttled' }, headers: { 'retry-after': '17' } });
		expect(d?.message).toBe('Unpod rate limit reached: retry after 17 seconds');
		expect(d?.retryAfter).toBe(17);
	});
	test('an HTML page and a broken 200 body give clear messages', () => {
		const html = describeUnpodError({ statusCode: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' });
		expect(html?.message).toBe('Unpod answered HTTP 502 with a page that is not JSON');
		expect(html?.description).toContain('502 Bad Gateway');
		expect(describeUnpodError({ statusCode: 200, body: '{"data": [' })?.message).toBe(
			'Unpod sent an answer that is not valid JSON',
		);
	});
	test('5xx JSON answers are server errors', () => {
		expect(describeUnpodError({ statusCode: 500, body: { message: 'boom' } })?.message).toBe(
			'Unpod server error (HTTP 500): boom',
		);
	});
});

describe('retryAfterSeconds', () => {
	test('reads seconds, an HTTP date, or X-RateLimit-Reset', () => {
		const now = Date.parse('2026-11-22T10:00:00Z');
		expect(retryAfterSeconds({ 'Retry-After': '5' }, now)).toBe(5);
		expect(retryAfterSeconds({ 'retry-after': 'Sun, 22 Nov 2026 10:00:30 GMT' }, now)).toBe(30);
		expect(retryAfterSeconds({ 'x-ratelimit-reset': String(now / 1000 + 12) }, now)).toBe(12);
		expect(retryAfterSeconds({}, now)).toBeUndefined();
	});
});
