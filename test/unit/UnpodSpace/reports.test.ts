/** The analytics and invoice Simplifies, on the answers Unpod's documents show. */
import { simplifyAnalytics } from '../../../nodes/UnpodSpace/resources/space/getAnalytics.operation';
import { simplifyInvoice } from '../../../nodes/UnpodSpace/resources/organization/getBilling.operation';
import { toPage } from '../../../nodes/shared/pagination';

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

test('both invoice shapes: invoice_number with its dates, or an id alone; amounts as numbers', () => {
	expect(
		simplifyInvoice({
			invoice_number: 'INV-00118',
			amount: '1357.35',
			tax_amount: '207.05',
			currency: 'INR',
			status: 'pending',
			charge_type: 'subscription',
			invoice_date: '2026-01-04T00:00:15.045893Z',
			due_date: '2026-01-11T00:00:15.045893Z',
			payment_at: null,
		}),
	).toEqual({
		invoice_number: 'INV-00118',
		id: null,
		amount: 1357.35,
		tax_amount: 207.05,
		currency: 'INR',
		status: 'pending',
		charge_type: 'subscription',
		invoice_date: '2026-01-04T00:00:15.045Z',
		due_date: '2026-01-11T00:00:15.045Z',
		payment_at: null,
	});
	expect(
		simplifyInvoice({
			id: 101,
			amount: '299.00',
			currency: 'USD',
			status: 'paid',
			invoice_date: '2026-02-01T00:00:00Z',
		}),
	).toMatchObject({ invoice_number: '101', id: 101, amount: 299, tax_amount: null, status: 'paid' });
});

test('a page reads either envelope: data or results', () => {
	expect(toPage({ count: 2, data: [{ a: 1 }] })).toEqual({ count: 2, data: [{ a: 1 }] });
	expect(toPage({ count: 12, results: [{ id: 101 }] })).toEqual({ count: 12, data: [{ id: 101 }] });
});
