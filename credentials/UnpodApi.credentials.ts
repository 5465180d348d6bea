import type {
	ICredentialDataDecryptedObject,
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { atOrigin, baseUrlProblem, requestTarget } from '../nodes/shared/addresses';
import { BASE_URL_EXPRESSION } from '../nodes/shared/transport';

export class UnpodApi implements ICredentialType {
	name = 'unpodApi';

	displayName = 'Unpod API';

	icon: Icon = { light: 'file:../icons/unpod.svg', dark: 'file:../icons/unpod.dark.svg' };

	documentationUrl = 'https://docs.unpod.ai/api/get-started/authentication';

	properties: INodeProperties[] = [
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'An API token of your Unpod account: in Unpod, click the key icon (API Keys) in the left sidebar, then Generate New API Key',
		},
		{
			displayName: 'Organization Handle',
			name: 'orgHandle',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'my-company',
			description:
				'The domain handle of your organization, sent as the Org-Handle header. It is the domain_handle shown in your organization settings.',
		},
		{
			displayName: 'Product ID',
			name: 'productId',
			type: 'string',
			default: 'unpod.dev',
			required: true,
			description: 'Sent as the Product-ID header. Keep the default unless Unpod support gave you another value.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://unpod.ai',
			required: true,
			description:
				'The address of the Unpod API, without /api/v2/platform. https://, or plain http:// only to localhost or a private network address.',
		},
		{
			displayName: 'Webhook Header Name',
			name: 'webhookHeaderName',
			type: 'string',
			default: 'X-Unpod-Secret',
			description:
				"Only for the Unpod Call Events Trigger: the header Unpod sends with each call event. Enter the same name as a custom header in the agent's webhook form in Unpod Studio.",
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"For the Unpod Call Events Trigger: a long random value (at least 16 characters) that Unpod sends in the header above. Enter the same value in the agent's webhook form. Unpod signs nothing, so this is the only proof that a call event comes from Unpod. It also keys the resume addresses of executions waiting for calls: changing it lets those waits run to their time limit.",
		},
	];

	/**
	 * The three headers, sent only to the Base URL's origin and never on a redirect: n8n's
	 * helpers otherwise follow a redirect to any host with the Authorization header (and
	 * follow-redirects keeps the other two). A plain-http Base URL outside one's own network is
	 * refused here, for the credential's Test and every request alike.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const baseUrl = String(credentials.baseUrl ?? '').trim();
		const problem = baseUrlProblem(baseUrl);
		if (problem) throw new Error(problem);
		// n8n's HTTP Request node sends its requests the older way: `uri`, and `followRedirect`.
		const legacy = requestOptions as IHttpRequestOptions & { uri?: string };
		const url = String(legacy.url ?? legacy.uri ?? '');
		const { baseURL } = requestOptions;
		const target = requestTarget(url, baseURL);
		if (!atOrigin(target, baseUrl)) {
			let origin = 'another address';
			try {
				origin = new URL(target).origin;
			} catch {
				// No URL: said as another address.
			}
			throw new Error(
				`The Unpod credential is sent only to the origin of its Base URL (${new URL(baseUrl).origin}), not to ${origin}`,
			);
		}
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: `Token ${String(credentials.apiToken ?? '')}`,
				'Org-Handle': String(credentials.orgHandle ?? ''),
				'Product-ID': String(credentials.productId ?? ''),
			},
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
			followRedirect: false,
			followAllRedirects: false,
		} as IHttpRequestOptions;
	}

	// The bridges list checks all three headers: a wrong token answers 401; a wrong
	// organization handle or a missing Product-ID answers HTTP 206 (a success to n8n)
	// with one of these messages, which the rules below turn into a failed test.
	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: '/telephony/bridges/',
			qs: { page: 1, page_size: 1 },
		},
		// n8n types the rules as one kind per list, but its credential test reads both kinds from one.
		rules: [
			// n8n 2.8 words a 401 this way itself; later versions show the bare status text.
			{
				type: 'responseCode',
				properties: { value: 401, message: 'Authorization failed - please check your credentials' },
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'Organization not found',
					message:
						'Unpod knows no organization with this Organization Handle. Use the domain_handle of your organization.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'Please provide Org-Handle in headers',
					message: 'Enter the Organization Handle (the domain_handle of your organization).',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'Please provide Product-Id in headers',
					message: 'Enter the Product ID (unpod.dev unless Unpod told you otherwise).',
				},
			},
		] as Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody> as ICredentialTestRequest['rules'],
	};
}
