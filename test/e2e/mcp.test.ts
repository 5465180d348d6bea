/**
 * The MCP example in a running n8n, reached by the MCP client n8n itself ships (the official
 * TypeScript SDK, streamable HTTP): its tools as a client lists them, a list tool against the
 * local server, the allow-list of the call tool (enabled in a second copy, as a user does), and
 * the bearer token.
 */
import axios from 'axios';
import type { N8n } from '../../dev/harness/n8n';
import { N8nServer } from '../../dev/harness/n8n-server';
import {
	answerOf,
	connectMcp,
	MCP_CREDENTIAL,
	mcpReadOnly,
	mcpRegistered,
	mcpWithCalls,
	type McpClient,
} from '../helpers/mcp';
import { Harness, startProcessHarness } from '../helpers/setup';
import { onPinnedN8n } from '../helpers/versions';
import { SEED } from '../../dev/server/seed';

const DANA = '+12125550181';
const OFF_LIST = '+12125100999';

let h: Harness<N8n>;
let n8n: N8nServer;
const clients: McpClient[] = [];
const readOnly = mcpReadOnly();
const withCalls = mcpWithCalls();

async function connect(path: string, token?: string): Promise<McpClient> {
	const client = await connectMcp(n8n, path, token);
	clients.push(client);
	return client;
}

beforeAll(async () => {
	h = await startProcessHarness({}, undefined, [MCP_CREDENTIAL]);
	await h.n8n.importWorkflows([readOnly, withCalls]);
	n8n = await N8nServer.start(h.n8n);
	await n8n.setActive(readOnly.id, true);
	await n8n.setActive(withCalls.id, true);
	await mcpRegistered(n8n, 'unpod');
	await mcpRegistered(n8n, 'unpod-calls');
});

afterAll(async () => {
	for (const client of clients) await client.close().catch(() => undefined);
	await n8n?.stop();
	await h?.close();
});

test('a client lists the read-only tools by default, each with its description and the inputs the client fills', async () => {
	const client = await connect('unpod');
	const { tools } = await client.listTools();
	const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
	expect(Object.keys(byName).sort()).toEqual(['Call_figures', 'Find_calls', 'List_agents']);
	expect(byName.Find_calls.description).toMatch(/^Lists the calls of the Unpod campaign space/);
	expect(byName.Find_calls.description).toContain('Read-only');
	expect(Object.keys(byName.Find_calls.inputSchema.properties).sort()).toEqual(
		['created_after', 'limit', 'outcome', 'search', 'status'].sort(),
	);
	expect(byName.Find_calls.inputSchema.properties.limit.type).toBe('number');
	expect(byName.Call_figures.description).toContain('one Unpod request');
	expect(byName.List_agents.description).toContain('Read-only');
});

test("a list tool answers with the local server's calls, filtered as the client asked, in one request", async () => {
	const ended = h.server.calls.addTasks([
		{ name: 'Ava Patel', contact_number: '+12125100301' },
		{ name: 'Ben Ortiz', contact_number: '+12125100302' },
		{ name: 'Cleo Park', contact_number: '+12125100303' },
	]);
	h.server.calls.finishCalls({ count: 2, outcome: 'completed' });
	h.server.calls.finishCalls({ count: 1, outcome: 'failed' });
	h.server.resetTraffic();

	const client = await connect('unpod');
	const answer = answerOf(await client.callTool({ name: 'Find_calls', arguments: { status: 'failed', limit: 10 } }));
	expect(answer).toMatchObject({ isError: false });
	const calls = [answer.json].flat();
	expect(calls.map((c: any) => [c.task_id, c.status, c.contact_number])).toEqual([
		[ended[2].task_id, 'failed', '+12125100303'],
	]);
	expect(h.server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
		`GET /api/v2/platform/spaces/${SEED.spaceToken}/tasks/`,
	]);

	const all = answerOf(
		await client.callTool({ name: 'Find_calls', arguments: { status: 'completed,failed', search: 'pa', limit: 10 } }),
	);
	expect(
		[all.json]
			.flat()
			.map((c: any) => c.contact_name)
			.sort(),
	).toEqual(['Ava Patel', 'Cleo Park']);
	const none = answerOf(
		await client.callTool({
			name: 'Find_calls',
			arguments: { status: 'failed', created_after: '2099-01-01T00:00:00Z' },
		}),
	);
	expect(none.isError).toBe(false);
	expect([none.json ?? []].flat().filter((c: any) => c?.task_id)).toEqual([]);

	// The tool caps what the client asks for at 50 calls.
	h.server.calls.addTasks(
		Array.from({ length: 60 }, (_, i) => ({
			name: `Lead ${i}`,
			contact_number: `+1212530${String(i).padStart(4, '0')}`,
		})),
	);
	h.server.calls.finishCalls({ outcome: 'completed' });
	const capped = answerOf(
		await client.callTool({ name: 'Find_calls', arguments: { status: 'completed', limit: 500 } }),
	);
	expect([capped.json].flat()).toHaveLength(50);
	const figures = answerOf(await client.callTool({ name: 'Call_figures', arguments: {} }));
	expect([figures.json].flat()).toEqual([
		expect.objectContaining({ space_token: SEED.spaceToken, total_calls: 63, tasks_completed: 62, tasks_failed: 1 }),
	]);
});

onPinnedN8n('the call tool places nothing for a number off its allow-list, and says why', async () => {
	h.server.resetTraffic();
	const client = await connect('unpod-calls');
	const { tools } = await client.listTools();
	expect(tools.map((t) => t.name).sort()).toEqual([
		'Call_figures',
		'Call_outcome',
		'Find_calls',
		'List_agents',
		'Place_a_call',
	]);
	const answer = answerOf(
		await client.callTool({
			name: 'Place_a_call',
			arguments: { name: 'Erin Stone', phone_number: OFF_LIST, what_to_say: 'Ask about the renewal' },
		}),
	);
	expect(answer.isError).toBe(true);
	expect(answer.text).toContain(`not on this tool's allow-list: ${OFF_LIST}`);
	expect(h.server.requestsTo('POST', '/tasks/')).toEqual([]);
	expect(h.server.store.tasks.filter((t) => t.input.contact_number === OFF_LIST)).toEqual([]);
});

test('the call tool answers at once with the task id; the outcome tool reads the call once it ended', async () => {
	h.server.resetTraffic();
	const client = await connect('unpod-calls');
	const placed = answerOf(
		await client.callTool({
			name: 'Place_a_call',
			arguments: { name: 'Dana Reyes', phone_number: DANA, what_to_say: 'Ask when the technician may come' },
		}),
	);
	expect(placed.isError).toBe(false);
	const [row] = [placed.json].flat();
	const task = h.server.store.tasks.find((t) => t.input.contact_number === DANA)!;
	expect(row).toMatchObject({ task_id: task.task_id, run_id: task.run_id, task_status: 'pending' });
	expect(task.input).toMatchObject({ name: 'Dana Reyes', contact_number: DANA });
	expect(task.status).not.toMatch(/completed|failed/);
	// With Consent on, as the example ships: Dana's consent, mapped in the tool, travels with the call.
	const creates = h.server.requestsTo('POST', '/tasks/');
	expect(creates).toHaveLength(1);
	expect((creates[0].body as { documents: unknown[] }).documents).toEqual([
		expect.objectContaining({ consent_at: '2026-01-15T10:00:00.000Z', consent_source: 'service agreement' }),
	]);

	const open = answerOf(await client.callTool({ name: 'Call_outcome', arguments: { run_id: row.run_id } }));
	expect([open.json].flat()).toEqual([expect.objectContaining({ task_id: task.task_id, status: task.status })]);

	h.server.calls.finishCalls({ outcome: 'completed' });
	const ended = answerOf(await client.callTool({ name: 'Call_outcome', arguments: { run_id: row.run_id } }));
	expect([ended.json].flat()).toEqual([
		expect.objectContaining({ task_id: task.task_id, status: 'completed', call_summary: task.output.call_summary }),
	]);

	// Asked again, the tool does not call Dana twice: it answers with the call it placed.
	const again = answerOf(
		await client.callTool({
			name: 'Place_a_call',
			arguments: { name: 'Dana Reyes', phone_number: DANA, what_to_say: 'Ask when the technician may come' },
		}),
	);
	expect([again.json].flat()).toEqual([
		expect.objectContaining({
			task_id: task.task_id,
			unpod_skipped: expect.stringMatching(/^Not sent: task \w+ for number \+12125550181 was created/),
		}),
	]);
	expect(h.server.requestsTo('POST', '/tasks/')).toHaveLength(1);
});

test('a request without the bearer token, or with another, is refused and runs nothing', async () => {
	const initialize = {
		jsonrpc: '2.0',
		id: 1,
		method: 'initialize',
		params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'anonymous', version: '1' } },
	};
	const headers = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' };
	const post = (extra: Record<string, string>) =>
		axios.post(`${n8n.url}/mcp/unpod`, initialize, { headers: { ...headers, ...extra }, validateStatus: () => true });
	// n8n's Bearer Auth answers 403 whether the token is missing or wrong.
	const before = await n8n.executionCount(readOnly.id);
	expect((await post({})).status).toBe(403);
	expect((await post({ Authorization: 'Bearer not-the-token' })).status).toBe(403);
	await expect(connect('unpod', 'not-the-token')).rejects.toThrow();
	expect(await n8n.executionCount(readOnly.id)).toBe(before);
});
