/** Organization > Get Billing: the organization's invoices, newest first as Unpod lists them. */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { checkResponseAt, listRouting } from '../../../shared/routing';
import { numberOf } from '../../../shared/values';
import { isoTime } from '../../../shared/time';

const PATH = '/organisation/billing/';

/**
 * An invoice as a sheet wants it, from either shape Unpod documents: `invoice_number` with
 * `tax_amount`, `due_date` and `payment_at`, or an `id` only. Amounts are numbers (Unpod sends
 * decimal strings).
 */
export function simplifyInvoice(invoice: IDataObject): IDataObject {
	return {
		invoice_number: invoice.invoice_number ?? (invoice.id !== undefined ? String(invoice.id) : null),
		id: invoice.id ?? null,
		amount: numberOf(invoice.amount),
		tax_amount: numberOf(invoice.tax_amount),
		currency: invoice.currency ?? null,
		status: invoice.status ?? null,
		charge_type: invoice.charge_type ?? null,
		invoice_date: isoTime(invoice.invoice_date ?? null),
		due_date: isoTime(invoice.due_date ?? null),
		payment_at: isoTime(invoice.payment_at ?? null),
	};
}

export const option: INodePropertyOptions = {
	name: 'Get Billing',
	value: 'getBilling',
	action: 'Get the invoices of the organization',
	description: "The organization's invoices: number, amount, tax, currency, status (paid, pending, failed), dates",
	// No key to drop repeats by: one shape names invoices by number, the other by id.
	routing: listRouting({ url: PATH, simplify: simplifyInvoice, check: checkResponseAt(PATH) }),
};

export const description: INodeProperties[] = returnAllAndLimit({
	resource: ['organization'],
	operation: ['getBilling'],
});
