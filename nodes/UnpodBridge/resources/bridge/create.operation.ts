/** Bridge > Create. */
import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { formatApiErrors, unpodError } from '../../../shared/errors';
import { checkResponse, requestRouting, unwrapData } from '../../../shared/routing';
import { SLUG_MAX_LENGTH, slugFromName, slugProblem, slugTakenMessage } from './bridge.slug';

const show = { resource: ['bridge'], operation: ['create'] };

/** The slug this item sends: the one given, or the one made from the name. */
function slugToSend(context: IExecuteSingleFunctions): { slug: string; derived: boolean } {
	const given = String(context.getNodeParameter('slug', '') ?? '').trim();
	if (given) return { slug: given, derived: false };
	return { slug: slugFromName(String(context.getNodeParameter('name', '') ?? '')), derived: true };
}

/** Puts the slug in the body (OpenAPI 2.0.0 requires it), or refuses a name or slug Unpod would. */
async function withSlug(this: IExecuteSingleFunctions, request: { body?: unknown }): Promise<void> {
	const fail = (message: string, description: string) =>
		new NodeOperationError(this.getNode(), message, { description, itemIndex: this.getItemIndex() });
	const name = String(this.getNodeParameter('name', '') ?? '').trim();
	if (!name) throw fail('Name is empty', 'Unpod needs a name for the bridge: set Name.');
	const { slug, derived } = slugToSend(this);
	if (!slug) {
		throw fail(
			`No slug can be made from the Name "${name}": it has no letters a-z or digits`,
			'Set a Slug, e.g. sales-line.',
		);
	}
	const problem = derived ? undefined : slugProblem(slug);
	if (problem)
		throw fail(problem, `Set a Slug of letters, digits, "-" and "_", at most ${SLUG_MAX_LENGTH} characters.`);
	request.body = { ...((request.body ?? {}) as IDataObject), name, slug };
}

/**
 * Whether Unpod refused the slug as taken: 409, or a 400 saying the slug exists (its docs,
 * `api/telephony/create-bridge.mdx` at b16d958: "Slug already exists or name is required").
 */
function slugTaken(response: IN8nHttpFullResponse): boolean {
	if (response.statusCode === 409) return true;
	if (response.statusCode !== 400 || !response.body || typeof response.body !== 'object') return false;
	const body = response.body as IDataObject;
	const text = `${typeof body.message === 'string' ? body.message : ''} ${formatApiErrors(body.errors)}`;
	return /slug/i.test(text) && /\b(already|exists?|taken|in use)\b/i.test(text);
}

/** The error check of Create: a taken slug says which field to change; anything else as usual. */
async function checkCreate(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	if (slugTaken(response)) {
		const { slug, derived } = slugToSend(this);
		throw unpodError(
			this.getNode(),
			response,
			{
				httpCode: String(response.statusCode),
				message: slugTakenMessage(slug, derived),
				description: 'A slug names one bridge in Unpod. Use Bridge > Get Many to see the slugs in use.',
			},
			this.getItemIndex(),
		);
	}
	return await checkResponse.call(this, items, response);
}

export const option: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a bridge',
	description: 'Create a telephony bridge',
	routing: requestRouting({
		method: 'POST',
		url: '/telephony/bridges/',
		idempotent: false,
		before: withSlug,
		check: checkCreate,
		steps: [unwrapData],
	}),
};

export const description: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Sales Line',
		displayOptions: { show },
		routing: { send: { type: 'body', property: 'name' } },
	},
	{
		displayName: 'Slug',
		name: 'slug',
		type: 'string',
		default: '',
		placeholder: 'e.g. sales-line',
		description: `The bridge's unique ID in Unpod, used to pick it later: letters, digits, "-" and "_", at most ${SLUG_MAX_LENGTH} characters. Leave empty to make it from the Name (Sales Line: sales-line).`,
		displayOptions: { show },
	},
];
