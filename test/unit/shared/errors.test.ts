import { describeUnpodError, formatApiErrors, readablePythonErrors } from '../../../nodes/shared/errors';
import { retryAfterSeconds } from '../../../nodes/shared/responseHeaders';

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

describe('readablePythonErrors', () => {
	test('renders a serializer dict as field: message', () => {
		expect(
			readablePythonErrors(
				"{'name': [ErrorDetail(string='This field is required.', code='required')], 'region': [ErrorDetail(string='\"XX\" is not a valid choice.', code='invalid_choice')]}",
			),
		).toBe('name: This field is required.; region: "XX" is not a valid choice.');
	});
	test('several messages for one field, quotes inside', () => {
		expect(
			readablePythonErrors(
				`{'name': [ErrorDetail(string="Can't be blank.", code='blank'), ErrorDetail(string='Too long.', code='max_length')]}`,
			),
		).toBe("name: Can't be blank. Too long.");
	});
	test('plain text is not touched', () => {
		expect(readablePythonErrors('Number is required')).toBeUndefined();
	});
	test('the mapper uses it for 400 messages', () => {
		const d = describeUnpodError({
			statusCode: 400,
			body: {
				status_code: 400,
				message: "{'name': [ErrorDetail(string='This field is required.', code='required')]}",
				data: {},
			},
		});
		expect(d?.message).toBe('name: This field is required.');
	});
});

describe('answers of the real backend', () => {
	test('an empty 2xx (204) is a success; a 2xx body that is not JSON is not', () => {
		expect(describeUnpodError({ statusCode: 204, body: '' })).toBeUndefined();
		expect(describeUnpodError({ statusCode: 204, body: undefined })).toBeUndefined();
		expect(describeUnpodError({ statusCode: 200, body: '{"data": [' })?.message).toBe(
			'Unpod sent an answer that is not valid JSON',
		);
	});
	test('a 200 whose data is only a detail is an error', () => {
		const d = describeUnpodError({
			statusCode: 200,
			body: { status_code: 200, message: 'ok', data: { detail: 'No organization found.' } },
		});
		expect(d).toMatchObject({ httpCode: '200', message: 'Unpod refused the request: No organization found.' });
		expect(describeUnpodError({ statusCode: 200, body: { data: { detail: 'x', id: 1 } } })).toBeUndefined();
	});
	test('206 Invalid Space Token names the space', () => {
		expect(
			describeUnpodError({ statusCode: 206, body: { message: 'Invalid Space Token' } }, 'space "abc"')?.message,
		).toBe('Invalid Space Token: space "abc"');
	});
	test('a 401 on spaces or organizations says the scheme may be refused; elsewhere it is the token', () => {
		const body = { status_code: 401, message: 'Authentication credentials were not provided.' };
		expect(describeUnpodError({ statusCode: 401, body }, undefined, '/spaces/')?.message).toBe(
			'Unpod refused the API token on /spaces/ (HTTP 401)',
		);
		expect(describeUnpodError({ statusCode: 401, body }, undefined, '/organizations/')?.message).toMatch(
			/refused the API token/,
		);
		expect(describeUnpodError({ statusCode: 401, body }, undefined, '/spaces/abc/tasks/')?.message).toBe(
			'Unpod did not accept the API token: it is missing or wrong',
		);
	});
});
