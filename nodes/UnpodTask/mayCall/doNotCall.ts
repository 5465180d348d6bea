/**
 * The do-not-call check of every operation that places calls (Create, Call and Wait, Call and
 * Wait for Approval, Follow Up, and so the AI-agent and MCP tools they become): its two fields,
 * on by default, and the refusal of a contact before any request.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { DoNotCallList, parseDoNotCallList, saysYes } from '../../shared/doNotCall';

type Show = Record<string, Array<string | number | boolean>>;

export function doNotCallFields(show: Show): INodeProperties[] {
	return [
		{
			displayName: 'Do Not Call',
			name: 'doNotCall',
			type: 'string',
			default: '={{ $json.do_not_call }}',
			description:
				"Whether this contact asked not to be called: true, yes, 1 (as sheets and CRMs write it) leaves it out. By default it reads the item's do_not_call.",
			hint: 'Map your opt-out column or CRM flag here. A contact left out comes out with unpod_created false and unpod_refused.',
			displayOptions: { show },
		},
		{
			displayName: 'Do-Not-Call Numbers',
			name: 'doNotCallNumbers',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			placeholder: "e.g. {{ $('Do-not-call list').first().json.phone }}",
			description:
				'Numbers nobody may call: a list from an expression (numbers, or rows with a phone), or numbers separated by commas or lines',
			hint: 'Read once for the run. An entry that is not a phone number stops the node before any call. A number without a country code matches every number that ends with it.',
			displayOptions: { show },
		},
	];
}

/** The run's Do-Not-Call Numbers, read once (from the first item); a bad entry stops the node, naming it. */
export function doNotCallListOf(context: IExecuteFunctions): DoNotCallList {
	const value = context.getNodeParameter('doNotCallNumbers', 0, '');
	const { numbers, bad } = parseDoNotCallList(value);
	if (bad.length) {
		const [first] = bad;
		throw new NodeOperationError(
			context.getNode(),
			`Do-Not-Call Numbers: entry ${first.position}, "${first.value}", is not a phone number. Nothing was sent.`,
			{
				description: `Every entry must be a phone number (an optional + and 7 to 15 digits), so that the list is never misread.${
					bad.length > 1
						? ` Also not phone numbers: entries ${bad
								.slice(1, 11)
								.map((b) => b.position)
								.join(', ')}${bad.length > 11 ? ', ...' : ''}.`
						: ''
				}`,
			},
		);
	}
	return new DoNotCallList(numbers);
}

/**
 * Why the contact `document` of item `itemIndex` must not be called, or undefined: its Do Not
 * Call field, its document's own `do_not_call`, or its number on the list.
 */
export function doNotCallReason(
	context: IExecuteFunctions,
	itemIndex: number,
	document: IDataObject,
	list: DoNotCallList,
): string | undefined {
	const number = String(document.contact_number ?? '');
	if (saysYes(context.getNodeParameter('doNotCall', itemIndex, ''))) return 'its Do Not Call says yes';
	if (saysYes(document.do_not_call)) return 'its do_not_call says yes';
	if (number && list.has(number)) return 'Do-Not-Call Numbers';
	return undefined;
}
