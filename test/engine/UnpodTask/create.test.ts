import { itemsOf, outputOf } from '../../../dev/harness/run-results';
import { N8nNode, rowsNode } from '../../../dev/harness/workflow-builders';
import { agentRef, createNode, spaceRef, unpodNode } from '../../helpers/nodes';
import { Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const taskNode = (name: string, parameters: Record<string, unknown>, extra: Partial<N8nNode> = {}) =>
	unpodNode('task', name, parameters, extra);
const create = (name: string, parameters: Record<string, unknown> = {}, extra: Partial<N8nNode> = {}) =>
	createNode(parameters, extra, name);
const space = spaceRef;
const agent = agentRef;

const CREATE_PATH = `/api/v2/platform/spaces/${SEED.spaceToken}/tasks/`;
const sheet = (n: number) =>
	Array.from({ length: n }, (_, i) => ({
		row: i + 1,
		name: `Contact ${i + 1}`,
		phone: `+1415555${String(i).padStart(4, '0')}`,
		email: `c${i + 1}@example.com`,
	}));

// As a sheet node gives them: `row_number` is the line in the sheet (line 1 is the header).
const withBadRows = sheet(50).map((r) => {
	const row = { ...r, row_number: r.row + 1 };
	if (r.row === 5) return { ...row, name: '' };
	if (r.row === 20) return { ...row, phone: 'abc' };
	if (r.row === 40) return { ...row, phone: '12345' };
	return row;
});

const workflows = new Workflows();
const bulk = workflows.chain('taskBulk250', [
	rowsNode('Sheet', sheet(250)),
	create('Create', { options: { batchSize: 100 } }),
]);
const badRowsContinue = workflows.chain('taskBadRowsContinue', [
	rowsNode('Sheet', withBadRows),
	create('Create', {}, { onError: 'continueRegularOutput' }),
]);
const badRowsFail = workflows.chain('taskBadRowsFail', [rowsNode('Sheet', withBadRows), create('Create')]);
const phones = workflows.chain('taskPhones', [
	rowsNode('Sheet', [
		{ name: 'Ann', phone: '(415) 555-0100' },
		{ name: 'Bob', phone: '415.555.0101' },
		{ name: 'Cat', phone: '+44 20 7946 0958' },
		{ name: 'Dan', phone: '0044 20 7946 0959' },
	]),
	create('Create', {
		schedule: 'custom',
		callAt: '2030-12-01T09:30:00',
		options: { defaultCountryCode: '+1' },
		contactFields: {
			email: '={{ $json.name.toLowerCase() }}@example.com',
			labels: 'vip, renewal',
			document_id: '={{ "crm-" + $json.name }}',
		},
	}),
]);
const jsonMode = workflows.chain('taskJson', [
	rowsNode('Batch', [
		{
			documents: [
				{ name: 'Eve', contact_number: '+14155550102', company_name: 'Eve Co' },
				{ name: 'Fay', contact_number: '+14155550103' },
			],
		},
	]),
	create('Create', { contactsSource: 'json', documents: '={{ $json.documents }}', schedule: 'auto' }),
]);
const unknownSpace = workflows.chain('taskUnknownSpace', [
	rowsNode('Sheet', sheet(2)),
	create('Create', { space: space('ghost-space') }),
]);
const emptyJson = workflows.chain('taskEmptyJson', [
	rowsNode('Batch', [{ documents: [] }]),
	create('Create', { contactsSource: 'json', documents: '={{ $json.documents }}' }),
]);
const lists = workflows.chain('taskLists', [
	taskNode('Space All', {
		operation: 'getAll',
		callsOf: 'space',
		space: space(SEED.secondSpaceToken),
		returnAll: true,
	}),
	taskNode(
		'Space Five',
		{ operation: 'getAll', callsOf: 'space', space: space(SEED.secondSpaceToken), limit: 5 },
		{ executeOnce: true },
	),
	taskNode(
		'Agent All Raw',
		{ operation: 'getAll', callsOf: 'agent', agent: agent(SEED.secondAgentHandle), returnAll: true, simplify: false },
		{ executeOnce: true },
	),
	taskNode(
		'Agent Completed',
		{
			operation: 'getAll',
			callsOf: 'agent',
			agent: agent(SEED.secondAgentHandle),
			limit: 500,
			filters: { status: 'completed' },
		},
		{ executeOnce: true },
	),
]);

// A setting of the whole run given by an expression that differs between items.
const batchPerItem = workflows.chain('taskBatchPerItem', [
	rowsNode('Sheet', sheet(3)),
	create('Create', { options: { batchSize: '={{ $json.row === 3 ? 50 : 100 }}' } }),
]);

// Loop Over Items, one item a round, sending the same contact twice on purpose: two runs of
// the Task node in one execution, each its own call.
const loopTwice = workflows.add({
	id: 'taskLoopTwice',
	name: 'taskLoopTwice',
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		{ id: 'l0', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			...rowsNode('Sheet', [
				{ name: 'Twice', phone: '+14155559999' },
				{ name: 'Twice', phone: '+14155559999' },
			]),
			id: 'l1',
			typeVersion: 2,
			position: [200, 0],
			parameters: rowsNode('Sheet', [
				{ name: 'Twice', phone: '+14155559999' },
				{ name: 'Twice', phone: '+14155559999' },
			]).parameters!,
		},
		{
			id: 'l2',
			name: 'Loop',
			type: 'n8n-nodes-base.splitInBatches',
			typeVersion: 3,
			position: [400, 0],
			parameters: { batchSize: 1, options: {} },
		},
		{ ...create('Create'), id: 'l3', typeVersion: 1, position: [600, 0], parameters: create('Create').parameters! },
	],
	connections: {
		Start: { main: [[{ node: 'Sheet', type: 'main', index: 0 }]] },
		Sheet: { main: [[{ node: 'Loop', type: 'main', index: 0 }]] },
		Loop: { main: [[], [{ node: 'Create', type: 'main', index: 0 }]] },
		Create: { main: [[{ node: 'Loop', type: 'main', index: 0 }]] },
	},
});

let h: Harness;

beforeAll(async () => {
	h = await startHarness({}, workflows);
	const contacts = Array.from({ length: 350 }, (_, i) => ({
		name: `Renewal ${i}`,
		contact_number: `+4420794600${String(i).padStart(2, '0')}`,
	}));
	h.server.calls.addTasks(contacts, {
		space: SEED.secondSpaceToken,
		pilot: SEED.secondAgentHandle,
		context: 'Renewal',
	});
	h.server.calls.finishCalls({ space: SEED.secondSpaceToken, count: 120, outcome: 'completed' });
	h.server.calls.finishCalls({ space: SEED.secondSpaceToken, count: 30, outcome: 'failed' });
});

afterAll(async () => {
	await h?.close();
});

afterEach(() => h.server.resetTraffic());

test('250 rows with batch size 100 make exactly 3 create requests, and every row gets its own task', async () => {
	const result = await h.run(bulk);
	expect(result.exitCode).toBe(0);
	const posts = h.server.requestsTo('POST', CREATE_PATH);
	expect(posts.map((r) => (r.body as any).documents.length)).toEqual([100, 100, 50]);
	for (const post of posts) {
		expect(post.headers).toMatchObject({
			authorization: `Token ${SEED.token}`,
			'org-handle': SEED.orgHandle,
			'content-type': expect.stringContaining('application/json'),
		});
		expect(post.body).toMatchObject({
			pilot: SEED.agentHandle,
			context: expect.stringMatching(/^Opening, required by law: .*\n\nRenewal offer$/s),
			schedule: { type: 'now' },
		});
	}
	expect((posts[0].body as any).documents[0]).toEqual({ name: 'Contact 1', contact_number: '+14155550000' });

	const items = itemsOf(result, 'Create');
	expect(items).toHaveLength(250);
	const ids = new Set(items.map((i) => i.json.task_id));
	expect(ids.size).toBe(250);
	items.forEach((item, i) => {
		expect(item.pairedItem).toEqual({ item: i });
		expect(item.json).toMatchObject({
			row: i + 1,
			name: `Contact ${i + 1}`,
			task_status: 'pending',
			task_id: expect.stringMatching(/^T[0-9a-f]{32}$/),
			run_id: expect.stringMatching(/^R[0-9a-f]{32}$/),
		});
		// The id the node paired with this row is the task the server made for this row.
		expect(h.server.store.tasksById.get(item.json.task_id)!.input.name).toBe(item.json.name);
	});
	expect(new Set(items.map((i) => i.json.run_id)).size).toBe(3);
});

test('under Continue On Fail, 3 bad rows among 50 come out as errors by row and the 47 good ones are sent once', async () => {
	const result = await h.run(badRowsContinue);
	expect(result.exitCode).toBe(0);
	const posts = h.server.requestsTo('POST', CREATE_PATH);
	expect(posts).toHaveLength(1);
	expect((posts[0].body as any).documents).toHaveLength(47);
	const items = itemsOf(result, 'Create');
	expect(items).toHaveLength(50);
	const errors = items.filter((i) => i.json.error).map((i) => [i.pairedItem.item + 1, i.json.error]);
	expect(errors).toEqual([
		[5, 'Row 6: name is missing'],
		[20, 'Row 21: contact_number "abc" is not a phone number (expected an optional + followed by 7 to 15 digits)'],
		[40, 'Row 41: contact_number "12345" is not a phone number (expected an optional + followed by 7 to 15 digits)'],
	]);
	expect(items.filter((i) => i.json.task_id)).toHaveLength(47);
});

test('without Continue On Fail, a bad row fails the node before anything is sent, naming every bad row', async () => {
	const result = await h.run(badRowsFail);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error.message).toBe(
		'Row 6: name is missing (also invalid: rows 21, 41). Nothing was sent.',
	);
	expect(h.server.requestsTo('POST', CREATE_PATH)).toHaveLength(0);
});

test('phone numbers lose their formatting and get the default country code; custom schedule and contact fields are sent', async () => {
	const result = await h.run(phones);
	expect(result.exitCode).toBe(0);
	const [post] = h.server.requestsTo('POST', CREATE_PATH);
	expect(post.body).toEqual({
		pilot: SEED.agentHandle,
		context: expect.stringMatching(/\n\nRenewal offer$/),
		schedule: { type: 'custom', calling_date: '2030-12-01', calling_time: '09:30' },
		documents: [
			{
				name: 'Ann',
				contact_number: '+14155550100',
				email: 'ann@example.com',
				labels: ['vip', 'renewal'],
				document_id: 'crm-Ann',
			},
			{
				name: 'Bob',
				contact_number: '+14155550101',
				email: 'bob@example.com',
				labels: ['vip', 'renewal'],
				document_id: 'crm-Bob',
			},
			{
				name: 'Cat',
				contact_number: '+442079460958',
				email: 'cat@example.com',
				labels: ['vip', 'renewal'],
				document_id: 'crm-Cat',
			},
			{
				name: 'Dan',
				contact_number: '+442079460959',
				email: 'dan@example.com',
				labels: ['vip', 'renewal'],
				document_id: 'crm-Dan',
			},
		],
	});
	// Each row gets the task Unpod made of its own document: the answer's ids follow the documents' order.
	const rows = outputOf(result, 'Create');
	const made = h.server.store.tasks.filter((t) => t.run_id === rows[0].run_id);
	const idOf = (name: string) => made.find((t) => t.input.name === name)!.task_id;
	expect(made).toHaveLength(4);
	expect(rows.map((r) => [r.name, r.task_id])).toEqual(['Ann', 'Bob', 'Cat', 'Dan'].map((name) => [name, idOf(name)]));
});

test('a JSON array of contacts in one item becomes one task per contact', async () => {
	const result = await h.run(jsonMode);
	expect(result.exitCode).toBe(0);
	const [post] = h.server.requestsTo('POST', CREATE_PATH);
	expect(post.body).toMatchObject({
		schedule: { type: 'auto' },
		documents: [
			{ name: 'Eve', contact_number: '+14155550102', company_name: 'Eve Co' },
			{ name: 'Fay', contact_number: '+14155550103' },
		],
	});
	const items = itemsOf(result, 'Create');
	expect(items.map((i) => [i.json.name, i.pairedItem.item])).toEqual([
		['Eve', 0],
		['Fay', 0],
	]);
	expect(items.every((i) => /^T/.test(i.json.task_id))).toBe(true);
});

test('an unknown space token fails with the API text of its 206 answer, naming the space', async () => {
	const result = await h.run(unknownSpace);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error).toMatchObject({
		name: 'NodeApiError',
		httpCode: '206',
		message: 'Invalid Space Token: space "ghost-space"',
	});
	// A 206 is an answer: the other create path is not tried.
	expect(h.server.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
		'POST /api/v2/platform/spaces/ghost-space/tasks/create/ 206',
	]);
});

test('a setting that holds for the whole run (Batch Size) differing between items is an error naming the item', async () => {
	const result = await h.run(batchPerItem);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error.message).toBe(
		'Batch Size must be the same for every item: item 3 gives 50, item 1 100',
	);
	expect(h.server.requestsTo('POST', CREATE_PATH)).toHaveLength(0);
});

test('an empty JSON array of contacts fails clearly and sends nothing', async () => {
	const result = await h.run(emptyJson);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error.message).toMatch(/^Item 1: Contacts \(JSON\) is empty/);
	expect(h.server.requestsTo('POST', CREATE_PATH)).toHaveLength(0);
});

test('Get Many walks every page of both task lists, and Limit 5 fetches one page', async () => {
	const result = await h.run(lists);
	expect(result.exitCode).toBe(0);
	const spaceAll = outputOf(result, 'Space All');
	expect(spaceAll).toHaveLength(350);
	expect(new Set(spaceAll.map((t) => t.task_id)).size).toBe(350);
	const completed = spaceAll.find((t) => t.status === 'completed');
	expect(completed).toMatchObject({
		call_status: 'completed',
		contact_name: expect.stringMatching(/^Renewal /),
		recording_url: `${h.server.url}/recordings/${completed?.task_id}.mp3`,
		transcript: expect.stringMatching(/^Assistant: Hello Renewal \d+/),
		outcome: expect.any(String),
		interest_level: expect.any(String),
	});
	expect(outputOf(result, 'Space Five')).toHaveLength(5);
	const raw = outputOf(result, 'Agent All Raw');
	expect(raw).toHaveLength(350);
	expect(raw[0]).toHaveProperty('output');
	expect(raw[0]).toHaveProperty('last_status_change');
	expect(outputOf(result, 'Agent Completed')).toHaveLength(120);

	const pages = (path: string) =>
		h.server
			.requestsTo('GET', path)
			.map((r) => [r.query.page, r.query.page_size, r.query.status].filter(Boolean).join('/'));
	expect(pages(`/spaces/${SEED.secondSpaceToken}/tasks/`)).toEqual(['1/100', '2/100', '3/100', '4/100', '1/5']);
	// The agent list ignores filters: the node reads it and keeps the completed tasks itself.
	expect(pages(`/agents/${SEED.secondAgentHandle}/tasks/`)).toEqual([
		'1/100',
		'2/100',
		'3/100',
		'4/100',
		'1/100',
		'2/100',
		'3/100',
		'4/100',
	]);
});

test('Loop Over Items sending the same contact twice places two calls (each run of the node sends its rows)', async () => {
	const result = await h.run(loopTwice);
	expect(result.exitCode).toBe(0);
	const runs = result.resultData!.runData['Create'];
	expect(runs).toHaveLength(2);
	const ids = runs.map((r) => r.data!.main[0]![0].json.task_id);
	expect(ids[0]).toMatch(/^T/);
	expect(ids[1]).toMatch(/^T/);
	expect(ids[0]).not.toBe(ids[1]);
	expect(h.server.requestsTo('POST', CREATE_PATH)).toHaveLength(2);
});
