/**
 * The MCP example (examples/mcp-server.json) as tests and the bench reach it: the workflow as
 * shipped and with its call tools enabled, and the MCP client n8n itself ships (the official
 * TypeScript SDK in n8n's install), over streamable HTTP with the example's bearer token.
 */
import axios from 'axios';
import { join } from 'path';
import { loadExample } from '../../dev/harness/examples';
import { RUNTIME } from '../../dev/harness/paths';
import { waitFor } from './wait-for';
import type { Workflow } from '../../dev/harness/workflow-builders';
import type { N8nServer } from '../../dev/harness/n8n-server';
import { CREDENTIAL } from './setup';

export const MCP_BEARER = { id: 'mcpBearerLocal', name: 'MCP bearer token (local)' };
export const MCP_TOKEN = 'mcp-test-token-3b9d0c6e1f7a42';
/** The bearer credential as `n8n import:credentials` takes it. */
export const MCP_CREDENTIAL = { ...MCP_BEARER, type: 'httpBearerAuth', data: { token: MCP_TOKEN } };

const example = () =>
	loadExample('mcp-server.json', {
		callingHours: false,
		credential: CREDENTIAL.unpodApi,
		filesDir: '',
		credentials: { httpBearerAuth: MCP_BEARER },
	});

/** The example as shipped: read-only tools at /mcp/unpod. */
export const mcpReadOnly = (): Workflow => example();

/** The example with its second part enabled, as its note tells the user, at /mcp/unpod-calls. */
export function mcpWithCalls(): Workflow {
	const workflow = example();
	workflow.id = 'mcpserverwithcalls';
	for (const node of workflow.nodes as Array<Record<string, any>>) {
		delete node.disabled;
		if (node.type.endsWith('.mcpTrigger')) {
			node.webhookId = '6c1f0a20-0098-4b7e-9d2a-5e8f3c1b7a98';
			node.parameters.path = 'unpod-calls';
		}
	}
	return workflow;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = (path: string) =>
	require(join(RUNTIME, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'cjs', path));

export interface McpClient {
	listTools(): Promise<{ tools: Array<{ name: string; description: string; inputSchema: any }> }>;
	callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<ToolAnswer>;
	close(): Promise<void>;
}

interface ToolAnswer {
	isError?: boolean;
	content: Array<{ type: string; text: string }>;
}

/** A connected MCP client of the trigger at `/mcp/<path>`. */
export async function connectMcp(n8n: N8nServer, path: string, token = MCP_TOKEN): Promise<McpClient> {
	const { Client } = sdk('client/index.js');
	const { StreamableHTTPClientTransport } = sdk('client/streamableHttp.js');
	const client = new Client({ name: 'unpod-tests', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(new URL(`${n8n.url}/mcp/${path}`), {
		requestInit: { headers: { Authorization: `Bearer ${token}` } },
	});
	await client.connect(transport);
	return client;
}

/** A tool's answer as the client reads it: the text n8n put in it, parsed where it is JSON. */
export function answerOf(answer: ToolAnswer): { isError: boolean; text: string; json?: any } {
	const text = answer.content.map((c) => c.text).join('\n');
	try {
		return { isError: Boolean(answer.isError), text, json: JSON.parse(text) };
	} catch {
		return { isError: Boolean(answer.isError), text };
	}
}

/** n8n registers a production webhook behind the activation request: waits until the path answers. */
export async function mcpRegistered(n8n: N8nServer, path: string): Promise<void> {
	const url = `${n8n.url}/mcp/${path}`;
	await waitFor(
		`${url} to be registered`,
		async () => (await axios.post(url, {}, { validateStatus: () => true })).status !== 404,
		30_000,
		250,
	);
}
