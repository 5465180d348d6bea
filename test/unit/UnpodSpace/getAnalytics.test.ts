/** Space > Get Analytics' Simplify, on the answers Unpod's documents show. */
import { simplifyAnalytics } from '../../../nodes/UnpodSpace/resources/space/getAnalytics.operation';

test("the source's call_analytics + call_status (docs' analytics.mdx) become one flat record", () => {
	expect(
		simplifyAnalytics({
			call_analytics: {
				total_calls: 419,
				interested: 77,
				call_back: 13,
				send_details: 1,
				not_interested: 20,
				not_connected: 35,
				failed: 200,
				avg_success_score: 467,
			},
			call_status: { total_tasks: 419, completed: 302, failed: 109, pending: 2, in_progress: 1, success_rate: 72.08 },
		}),
	).toEqual({
		total_calls: 419,
		completed_calls: null,
		failed_calls: 200,
		interested: 77,
		call_back: 13,
		send_details: 1,
		not_interested: 20,
		not_connected: 35,
		avg_success_score: 467,
		avg_duration_seconds: null,
		total_tasks: 419,
		tasks_pending: 2,
		tasks_in_progress: 1,
		tasks_completed: 302,
		tasks_failed: 109,
		success_rate: 72.08,
	});
});

test("the API reference's flat shape (get-analytics.mdx): the same names, the success rate worked out", () => {
	expect(
		simplifyAnalytics({
			total_calls: 1250,
			completed_calls: 987,
			failed_calls: 143,
			avg_duration_seconds: 145.3,
			total_tasks: 1350,
			task_status_breakdown: { pending: 45, running: 12, completed: 1180, failed: 113 },
		}),
	).toMatchObject({
		total_calls: 1250,
		completed_calls: 987,
		failed_calls: 143,
		interested: null,
		avg_duration_seconds: 145.3,
		total_tasks: 1350,
		tasks_pending: 45,
		tasks_in_progress: 12,
		tasks_completed: 1180,
		tasks_failed: 113,
		success_rate: 87.41,
	});
});

test('no data (a space with no calls) counts zero; figures sent as text are read as numbers, others are null', () => {
	expect(simplifyAnalytics(null)).toMatchObject({ total_calls: 0, tasks_completed: 0, success_rate: null });
	expect(simplifyAnalytics({ total_calls: '12', total_tasks: 'many' })).toMatchObject({
		total_calls: 12,
		total_tasks: null,
	});
});
