/**
 * What a node's picker (a resource locator's list search) shows, asked in this process through
 * n8n-core's own load-options context, with the built node and the tests' credential, as the
 * editor asks it of n8n: for engine tests of picker labels (the e2e editor test asks a real n8n).
 */
import { LoadOptionsContext } from 'n8n-core';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	INodeListSearchResult,
	INodeParameters,
	INodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { join } from 'path';
import { CredentialsHelper } from '../../dev/harness/credentials';
import { ROOT } from '../../dev/harness/paths';
import type { UnpodServer } from '../../dev/server/server';
import { CREDENTIAL, credentialsFor } from './setup';

const built = <T>(file: string, name: string): T =>
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	new (require(join(ROOT, 'dist', file))[name] as new () => T)();

/** The labels and values a node's `method` lists, the node's other parameters set to `parameters`. */
export async function listSearch(
	server: UnpodServer,
	node: 'UnpodBridge',
	method: string,
	options: { filter?: string; paginationToken?: string; parameters?: INodeParameters } = {},
): Promise<INodeListSearchResult> {
	const nodeType = built<INodeType>(`nodes/${node}/${node}.node.js`, node);
	const type = `n8n-nodes-unpod.${nodeType.description.name}`;
	const data = credentialsFor(server).find((c) => c.id === CREDENTIAL.unpodApi.id)!.data;
	const workflow = new Workflow({
		nodes: [
			{
				id: 'picker',
				name: 'Picker',
				type,
				typeVersion: 1,
				position: [0, 0],
				parameters: options.parameters ?? {},
				credentials: CREDENTIAL,
			},
		],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => nodeType,
			getByNameAndVersion: () => NodeHelpers.getVersionedNodeType(nodeType, 1),
			getKnownTypes: () => ({}),
		},
	});
	const additionalData = {
		credentialsHelper: new CredentialsHelper(
			() => data as ICredentialDataDecryptedObject,
			built<ICredentialType>('credentials/UnpodApi.credentials.js', 'UnpodApi'),
		),
		currentNodeParameters: options.parameters ?? {},
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
	const context = new LoadOptionsContext(workflow, workflow.getNode('Picker')!, additionalData, 'parameters.x');
	const search = nodeType.methods?.listSearch?.[method];
	if (!search) throw new Error(`${node} has no list search ${method}`);
	return await search.call(context, options.filter, options.paginationToken);
}
