/** What Attach and Detach share: the numbers sent, and one item per number in the answer. */
import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

export function phoneNumbersField(show: Record<string, string[]>): INodeProperties {
	return {
		displayName: 'Phone Numbers',
		name: 'phoneNumbers',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +14155550123, +14155550124',
		description: 'One number or several, comma-separated, in E.164 form',
		displayOptions: { show },
		routing: {
			send: {
				type: 'body',
				property: 'numbers',
				value: '={{ String($value).split(",").map((n) => n.trim()).filter((n) => n) }}',
			},
		},
	};
}

/** Unpod answers one result per number (`data.numbers`: `{number_id, number, ok, error...}`): one item each. */
export async function numberResults(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return items.flatMap((item) => {
		const data = ((item.json as IDataObject).data ?? {}) as IDataObject;
		const numbers = Array.isArray(data.numbers) ? (data.numbers as IDataObject[]) : [];
		return numbers.map((json) => ({ json }));
	});
}
