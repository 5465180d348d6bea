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
	/** The request as the credential's own `authenticate` function makes it, as n8n's helper calls it. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		_type: string,
		options: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type;
		if (typeof authenticate !== 'function') throw new Error('The Unpod credential authenticates with a function');
		return await authenticate(credentials, options);
	}
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
}
