/** n8n's credentials helper as the in-process runs need it: the tests' credentials, with their own `authenticate`. */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeCredentialsDetails,
} from 'n8n-workflow';

export class CredentialsHelper {
	constructor(
		/** The decrypted data of the credential a node names. */
		private readonly lookup: (credential: INodeCredentialsDetails) => ICredentialDataDecryptedObject,
		/** The package's credential type (from the source or from `dist/`, as the nodes under test). */
		private readonly type: ICredentialType,
	) {}

	getParentTypes() {
		return [];
	}
	async preAuthentication() {
		return undefined;
	}
	async getDecrypted(_additionalData: unknown, credential: INodeCredentialsDetails) {
		return this.lookup(credential);
	}
	getCredentialsProperties() {
		return this.type.properties;
	}
	/** The credential's `authenticate` headers, its `{{$credentials.x}}` resolved, as n8n's helper does. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		_type: string,
		options: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.type.authenticate as { properties: { headers?: Record<string, string> } };
		const resolved = Object.fromEntries(
			Object.entries(authenticate.properties.headers ?? {}).map(([k, v]) => [
				k,
				String(v)
					.replace(/^=/, '')
					.replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_, key) => String(credentials[key] ?? '')),
			]),
		);
		return { ...options, headers: { ...(options.headers ?? {}), ...resolved } };
	}
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
}
