/**
 * Person > Get: a contact's People profile (`GET knowledge_base/{kb_id}/connector-doc-data/{connector_id}/`,
 * openapi 677bf31): the calls made to them, how they answer, when they are called next, and
 * Unpod's summary of them. The knowledge base is the space; the connector document is the
 * contact's document in it (the Document ID of Task > Create).
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteSingleFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';
import { simplifyField, spaceLocator } from '../../../shared/descriptions';
import { checkResponseNaming, requestRouting } from '../../../shared/routing';
import { isoTime } from '../../../shared/time';
import { numberOf, objectOf, textOf } from '../../../shared/values';

const show = { resource: ['person'], operation: ['get'] };

/** The profile as one flat item, whichever fields Unpod filled; what it leaves out is null. */
export function simplifyPerson(data: unknown): IDataObject {
	const d = objectOf(data);
	const overview = objectOf(d.overview);
	const analytics = objectOf(overview.analytics);
	const rate = textOf(analytics.response_rate);
	return {
		document_id: textOf(d.document_id),
		name: textOf(d.name),
		profile_status: textOf(overview.profile_status),
		summary: textOf(overview.summary),
		total_calls: numberOf(analytics.total_calls),
		connected_calls: numberOf(analytics.connected_calls),
		// Unpod writes "75%": the number beside it is what a sheet can sort by.
		response_rate: rate,
		response_rate_percent: rate === null ? numberOf(analytics.response_rate) : numberOf(rate.replace(/%\s*$/, '')),
		avg_call_duration: textOf(analytics.avg_call_duration),
		last_connected: isoTime(analytics.last_connected ?? null),
		next_call_scheduled: isoTime(analytics.next_call_scheduled ?? null),
		preferred_time: textOf(analytics.preferred_time),
		sentiment: textOf(analytics.sentiment),
	};
}

/** A Document ID with a slash or nothing in it would ask another path: refused before sending. */
async function requireDocumentId(this: IExecuteSingleFunctions): Promise<void> {
	const id = String(this.getNodeParameter('documentId', '') ?? '').trim();
	if (!id || /[/\s]/.test(id))
		throw new NodeOperationError(
			this.getNode(),
			id ? `Document ID "${id}" has a space or a slash: paste the ID alone` : 'Document ID is empty',
			{ itemIndex: this.getItemIndex() },
		);
}

async function toPerson(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const simplify = this.getNodeParameter('simplify', true) as boolean;
	const space = this.getNodeParameter('space', undefined, { extractValue: true }) as string;
	return items.map((item) => {
		const data = objectOf(item.json).data;
		return { ...item, json: simplify ? { space_token: space, ...simplifyPerson(data) } : objectOf(data) };
	});
}

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: "Get a person's call profile",
	description:
		"Unpod's People profile of one contact: calls made and connected, response rate, last and next call, preferred time, sentiment and summary",
	routing: requestRouting({
		method: 'GET',
		idempotent: true,
		before: requireDocumentId,
		check: checkResponseNaming('documentId', 'person with Document ID'),
		steps: [toPerson],
	}),
};

export const description: INodeProperties[] = [
	spaceLocator(
		show,
		'=/knowledge_base/{{encodeURIComponent($value)}}/connector-doc-data/{{encodeURIComponent(String($parameter["documentId"]).trim())}}/',
	),
	{
		displayName: 'Document ID',
		name: 'documentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 670f1c2e9b1d4a0012ab34cd',
		description:
			"The contact's document in the space: the document_id of a task's outcome, or the Document ID the contact was imported with",
		displayOptions: { show },
	},
	simplifyField(show, 'person'),
];
