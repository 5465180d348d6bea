/** The task lists' filters: what is sent to each list and what the node checks itself. */
import { taskListQuery } from '../../../nodes/shared/taskLists';

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
});
