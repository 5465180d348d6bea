/** Pure parts that read the real backend's shapes beside the specification's. */
import { describeUnpodError, readablePythonErrors } from '../../nodes/shared/errors';
import { collectPages } from '../../nodes/shared/pagination';
import { simplifyTask } from '../../nodes/shared/outcome';
import { taskListQuery } from '../../nodes/shared/taskLists';
import { isoTime, platformTime, userTime } from '../../nodes/shared/time';
import { statusOf } from '../../nodes/UnpodTask/placeCalls/send';

describe('platformTime', () => {
	const at = Date.UTC(2026, 1, 16, 14, 55, 49, 123);
	test.each([
		['2026-02-16T14:55:49.123456', at],
		['2026-02-16 14:55:49.123456', at],
		['2026-02-16T14:55:49.123456Z', at],
		['2026-02-16T14:55:49.123Z', at],
		['2026-02-16T14:55:49', at - 123],
		['2026-02-16 14:55:49', at - 123],
		['2026-02-16T14:55:49Z', at - 123],
		['2026-02-16T14:55:49.1', at - 23],
		['2026-02-16T16:55:49.123+02:00', at],
		['2026-02-16T14:55', at - 49123],
	])('%s', (text, expected) => {
		expect(platformTime(text)).toBe(expected);
	});
	test('anything else is not a timestamp', () => {
		for (const v of ['', 'yesterday', '2026-02-16', 42, null, undefined]) expect(platformTime(v)).toBeUndefined();
	});
	test('isoTime writes UTC ISO and leaves other values alone', () => {
		expect(isoTime('2026-02-16 14:55:49.123456')).toBe('2026-02-16T14:55:49.123Z');
		expect(isoTime(null)).toBeNull();
		expect(isoTime('soon')).toBe('soon');
	});
	test('userTime reads n8n dates, zone-less as UTC', () => {
		expect(userTime('2026-02-16T14:55:49')).toBe(at - 123);
		expect(userTime('2026-02-16T15:55:49.123+01:00')).toBe(at);
		expect(userTime('2026-02-16')).toBe(Date.UTC(2026, 1, 16));
		expect(userTime({ toMillis: () => 5 })).toBe(5);
		expect(userTime('')).toBeUndefined();
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
	test("a create's status: a string, or each task's own from a map", () => {
		expect(statusOf('pending', 'T1')).toBe('pending');
		expect(statusOf({ T1: 'pending', T2: 'scheduled' }, 'T2')).toBe('scheduled');
		expect(statusOf({ T1: 'scheduled', T2: 'scheduled' }, null)).toBe('scheduled');
		expect(statusOf({ T1: 'pending', T2: 'scheduled' }, null)).toBeNull();
		expect(statusOf(undefined, 'T1')).toBe('pending');
	});
	test('simplified tasks carry ISO times', () => {
		const t = simplifyTask({
			task_id: 'T1',
			created: '2026-02-16T14:55:49.123456',
			last_status_change: '2026-02-16 15:00:00',
			output: { start_time: '2026-02-16 14:56:00.000001', end_time: '2026-02-16 14:57:00.5' },
		});
		expect(t).toMatchObject({
			created: '2026-02-16T14:55:49.123Z',
			modified: '2026-02-16T15:00:00.000Z',
			start_time: '2026-02-16T14:56:00.000Z',
			end_time: '2026-02-16T14:57:00.500Z',
		});
	});
});

describe('taskListQuery', () => {
	const task = (status: string, extra: Record<string, unknown> = {}) => ({
		status,
		input: { name: 'Ann' },
		output: {},
		...extra,
	});
	test('task status is never sent; the space gets the outcome as its status', () => {
		const { qs, match } = taskListQuery('space', {
			status: 'in_progress',
			outcome: 'Interested, Callback ',
			search: 'Ann',
		});
		expect(qs).toEqual({ status: 'Interested,Callback', search: 'Ann' });
		expect(match!(task('in_progress'))).toBe(true);
		expect(match!(task('pending'))).toBe(false);
	});
	test('the agent list is sent nothing and every filter is checked by the node', () => {
		const { qs, match } = taskListQuery('agent', {
			outcome: 'interested',
			direction: 'inbound',
			search: 'an',
			from: '2026-02-16T00:00:00',
		});
		expect(qs).toEqual({});
		const ended = (extra: Record<string, unknown>) =>
			task('completed', {
				created: '2026-02-16T10:00:00.000001',
				output: { call_type: 'inboundPhoneCall', post_call_data: { summary: { status: 'Interested' } } },
				...extra,
			});
		expect(match!(ended({}))).toBe(true);
		expect(match!(ended({ created: '2026-02-15T23:59:59' }))).toBe(false);
		expect(match!(ended({ input: { name: 'Bob' } }))).toBe(false);
		expect(
			match!(ended({ output: { call_type: 'outbound', post_call_data: { summary: { status: 'Interested' } } } })),
		).toBe(false);
	});
	test('no filter, no check', () => {
		expect(taskListQuery('space', {})).toEqual({ qs: {}, match: undefined });
	});
	test('the paginator reads full pages until Limit rows matched', async () => {
		const all = Array.from({ length: 450 }, (_, i) => ({
			task_id: `T${i}`,
			status: i % 50 === 0 ? 'failed' : 'completed',
		}));
		const asked: string[] = [];
		const rows = await collectPages(
			async (page, size) => {
				asked.push(`${page}/${size}`);
				return { count: all.length, data: all.slice((page - 1) * size, page * size) };
			},
			5,
			'task_id',
			(t) => t.status === 'failed',
		);
		expect(rows.map((r) => r.task_id)).toEqual(['T0', 'T50', 'T100', 'T150', 'T200']);
		expect(asked).toEqual(['1/100', '2/100', '3/100']);
	});
});
