/** Organization > Get Billing's Simplify, on the invoices Unpod's documents show. */
import { simplifyInvoice } from '../../../nodes/UnpodSpace/resources/organization/getBilling.operation';

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
