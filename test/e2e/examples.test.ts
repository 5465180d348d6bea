/**
 * Every example workflow imports into real n8n; those that can run offline run against the
 * local server: the CSV import and the bridge setup by `n8n execute`, the recordings workflow
 * and the AI-agent example in one running n8n, and the demo.
 */
import axios from 'axios';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { EXAMPLES, exampleFiles, loadExample } from '../helpers/examples';
import { itemsOf, type N8n, outputOf, ROOT, waitFor } from '../helpers/n8n';
import { createInSecondSpace } from '../helpers/nodes';
import { N8nServer } from '../helpers/n8n-server';
import { runGroup } from '../helpers/processes';
import { OpenAiStandIn } from '../helpers/openai-standin';
import { CREDENTIAL, Harness, startProcessHarness, Workflows } from '../helpers/setup';
import { TOOL_DESCRIPTION } from '../../nodes/UnpodTask/resources/task/callAndWait.operation';
import { SEED } from '../../dev/server/seed';
import { RECORDING } from '../../dev/server/recordings';
import { CSV_COLUMNS } from '../../scripts/demo-env';

const DANA = '+15550100201';

// Not an example: the renamed parameters and the options read for each item, in real n8n's own
// parameter resolution (each version's), through Set and Split Out as a sheet would give rows.
const perItemRows = [
	{ name: 'Berlin Office', phone: '030 1234567', country: '+49' },
	{ name: 'London Lead', phone: '07700 900123', country: '+44' },
];
const perItem = {
	id: 'perItemCountries',
	nodes: [
		{
			name: 'Sheet',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ rows: perItemRows }), options: {} },
		},
		{
			name: 'Rows',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'rows', options: {} },
		},
		createInSecondSpace({
			callContext: 'Renewal reminder',
			skipExisting: true,
			options: { defaultCountryCode: '={{ $json.country }}' },
		}),
	],
};
const OPENAI = { id: 'openAiLocal', name: 'OpenAI (local stand-in)' };

let h: Harness<N8n>;
let filesDir: string;
let model: OpenAiStandIn;
/** One running n8n for the tests that need one, started by the first of them. */
let running: N8nServer | undefined;
const workflows = new Workflows();
const startN8n = async () => (running ??= await N8nServer.start(h.n8n));

/** The AI-agent example as a test reaches it: the model's stand-in, a public chat, a quicker first check. */
function forTheTest(workflow: Workflows['list'][number]) {
	if (workflow.id !== 'aiagentcallandwait') return workflow;
	for (const node of workflow.nodes) {
		if (node.credentials?.openAiApi) node.credentials.openAiApi = OPENAI;
		// The example's chat is private (the editor's chat); the test reaches it as a public one.
		if (node.type.endsWith('.chatTrigger')) node.parameters = { ...node.parameters, public: true, mode: 'hostedChat' };
		// A quicker first check than the example's 15 s; everything else as the example has it.
		if (node.parameters?.operation === 'callAndWait')
			(node.parameters.options as Record<string, unknown>).checkSeconds = 5;
	}
	return workflow;
}

beforeAll(async () => {
	model = await new OpenAiStandIn(
		{
			tool: (names) => names.find((n) => /call_and_wait/i.test(n)),
			arguments: { contact: 'Dana Reyes', what_to_ask: 'Ask when the technician may come on Tuesday' },
		},
		(result) => `Dana answered. Tool result: ${result}`,
	).start();
	h = await startProcessHarness({}, undefined, [
		{ ...OPENAI, type: 'openAiApi', data: { apiKey: 'sk-local-standin', url: model.url } },
	]);
	filesDir = join(h.n8n.folder, 'files');
	mkdirSync(filesDir, { recursive: true });
	copyFileSync(join(EXAMPLES, 'contacts.csv'), join(filesDir, 'contacts.csv'));
	h.n8n.env.N8N_RESTRICT_FILE_ACCESS_TO = filesDir;
	h.n8n.env.N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE = 'true';
	for (const file of exampleFiles())
		workflows.add(forTheTest(loadExample(file, { credential: CREDENTIAL.unpodApi, filesDir })));
	workflows.chain(perItem.id, perItem.nodes);
	await h.n8n.importWorkflows(workflows.list);
});

afterAll(async () => {
	await running?.stop();
	await h?.close();
	await model?.stop();
});

afterEach(() => h.server.resetTraffic());

test('every example imports, and every node type it uses is known to n8n', async () => {
	expect(
		workflows.list
			.map((w) => w.id)
			.filter((id) => id !== perItem.id)
			.sort(),
	).toEqual(
		[
			'aiagentcallandwait',
			'aiagenttools',
			'bridgesetup',
			'spreadsheettotasks',
			'unpodcalleventstocrm',
			'unpodrecordingstofile',
			'unpodtriggertocrm',
			'unpodtriggertocsv',
		].sort(),
	);
	// The node types the running n8n loaded, as its editor reads them.
	const n8n = await startN8n();
	const types = await axios.get(`${n8n.url}/types/nodes.json`, {
		headers: { Cookie: n8n.cookie },
		validateStatus: () => true,
	});
	expect(types.status).toBe(200);
	// A node of several implementations (n8n's VersionedNodeType, listed once per version)
	// runs only at a version it has: there the version must be known too. Other nodes run
	// whatever version a workflow names.
	const exportedNodes = types.data as Array<{ name: string; version: number | number[] }>;
	const entries = (name: string) => exportedNodes.filter((n) => n.name === name);
	const unknown = workflows.list.flatMap((w) =>
		w.nodes
			.filter((n) => {
				const found = entries(n.type);
				if (found.length <= 1) return found.length === 0;
				return !found.some((e) => [e.version].flat().includes(n.typeVersion ?? 1));
			})
			.map((n) => `${w.id}: ${n.type}@${n.typeVersion}`),
	);
	expect(unknown).toEqual([]);
	for (const type of [
		'unpodTask',
		'unpodAgent',
		'unpodSpace',
		'unpodBridge',
		'unpodTrigger',
		'unpodCallEventsTrigger',
		'unpodTaskTool',
		'unpodAgentTool',
	]) {
		expect(entries(`n8n-nodes-unpod.${type}`).length).toBeGreaterThan(0);
	}
});

test('contacts CSV to call tasks: 46 rows created in one request, the 4 bad rows on the error output', async () => {
	const run = await h.run('spreadsheettotasks');
	expect(run.exitCode).toBe(0);
	const created = outputOf(run, 'Created');
	expect(created).toHaveLength(46);
	expect(created[0]).toMatchObject({
		name: 'Ava Patel',
		phone: '(200) 100-1000',
		task_id: expect.stringMatching(/^T/),
		task_status: 'pending',
	});
	const notCreated = itemsOf(run, 'Not created').map((i) => i.json);
	// The rows themselves, ready to be fixed and sent again.
	expect(notCreated.map((r) => [r.name, r.phone, r.unpod_created])).toEqual([
		[undefined, '422.418.1582', false],
		['Ruby Müller', 'call me', false],
		['Daniel Müller', '12345', false],
		['Paul Müller', undefined, false],
	]);
	expect(notCreated.map((r) => r.error)).toEqual([
		'Item 7: name is missing',
		'Item 18: contact_number "call me" is not a phone number (expected an optional + followed by 7 to 15 digits)',
		'Item 30: contact_number "12345" is not a phone number (expected an optional + followed by 7 to 15 digits)',
		'Item 42: contact_number is missing',
	]);
	const [post] = h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`);
	expect((post.body as any).documents).toHaveLength(46);
	expect((post.body as any).documents[0]).toEqual({
		name: 'Ava Patel',
		contact_number: '+12001001000',
		email: 'ava.patel@example.com',
		company_name: 'Northwind',
		about: 'Asked about pricing',
	});
});

test("the Task node's names and its per-item options in real n8n: each row read in its own country", async () => {
	// Called an hour ago and stored by Unpod in national form.
	const [earlier] = h.server.addTasks([{ name: 'London Lead', contact_number: '07700900123' }], {
		space: SEED.secondSpaceToken,
		pilot: SEED.secondAgentHandle,
		context: 'earlier',
	});
	const run = await h.run(perItem.id);
	expect(run.exitCode).toBe(0);
	const rows = outputOf(run, 'Create');
	expect(rows[0]).toMatchObject({ name: 'Berlin Office', task_id: expect.stringMatching(/^T/) });
	expect(rows[0].unpod_skipped).toBeUndefined();
	expect(rows[1]).toMatchObject({ name: 'London Lead', task_id: earlier.task_id });
	expect(rows[1].unpod_skipped).toMatch(/for number \+447700900123 /);
	const [post] = h.server.requestsTo('POST', `/spaces/${SEED.secondSpaceToken}/tasks/`);
	expect(post.body).toMatchObject({
		pilot: SEED.secondAgentHandle,
		context: 'Renewal reminder',
		documents: [{ name: 'Berlin Office', contact_number: '+49301234567' }],
	});
});

test('bridge setup: creates a DRAFT bridge; connects the provider to a number of a bridge and activates it', async () => {
	const run = await h.run('bridgesetup');
	expect(run.exitCode).toBe(0);
	expect(outputOf(run, 'Create bridge')).toEqual([
		expect.objectContaining({ name: 'Sales Line', status: 'DRAFT', region: 'US', numbers: [] }),
	]);
	expect(outputOf(run, 'Connect provider')).toEqual([
		expect.objectContaining({
			number_id: SEED.numberId,
			provider_details: expect.objectContaining({ id: SEED.activeCredentialId }),
		}),
	]);
	const [bridge] = outputOf(run, 'Activate');
	expect(bridge).toMatchObject({ slug: SEED.bridgeSlug, status: 'ACTIVE' });
	const [connect] = h.server.requestsTo('POST', `/telephony/bridges/${SEED.bridgeSlug}/connect-provider/`);
	expect(connect.body).toEqual({
		number_id: SEED.numberId,
		phone_number: SEED.agentNumber,
		provider_credential_id: SEED.activeCredentialId,
		provider_config_id: SEED.activeCredentialId,
	});
	expect(connect.status).toBe(201);
});

test('call recordings to files: an active workflow saves each completed call as <task_id>.mp3, every byte', async () => {
	mkdirSync(join(filesDir, 'recordings'), { recursive: true });
	const [done, failed] = h.server.addTasks([
		{ name: 'Recorded', contact_number: '+442071234598' },
		{ name: 'Unanswered', contact_number: '+442071234599' },
	]);
	const polls = () => h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length;
	const n8n = await startN8n();
	await n8n.setActive('unpodrecordingstofile', true, polls);
	h.server.store.finishTask(done, 'completed');
	h.server.store.finishTask(failed, 'failed');
	await n8n.nextPoll('unpodrecordingstofile', polls);
	const file = join(filesDir, 'recordings', `${done.task_id}.mp3`);
	await waitFor(
		'the recording saved whole',
		() => existsSync(file) && readFileSync(file).length === RECORDING.length,
	).catch(() => {
		throw new Error(`No recording saved; n8n's log ends:\n${n8n.logTail()}`);
	});
	expect(readFileSync(file).equals(RECORDING)).toBe(true);
	await n8n.setActive('unpodrecordingstofile', false);
	// The example watches completed calls only: the failed one was not fetched.
	expect(h.server.requests.filter((r) => r.path.startsWith('/recordings/')).map((r) => r.path)).toEqual([
		`/recordings/${done.task_id}.mp3`,
	]);
});

test('npm run demo finishes with every outcome exactly once (a 12-row CSV)', async () => {
	// The demo writes its CSV into a temp folder here, never into demo-output/.
	const outputDir = mkdtempSync(join(tmpdir(), 'unpod-demo-test-'));
	const {
		exitCode: code,
		stdout,
		stderr,
	} = await runGroup(
		join(ROOT, 'node_modules', '.bin', 'ts-node'),
		['--transpile-only', join(ROOT, 'scripts', 'demo.ts'), '--rows', '12'],
		{
			cwd: ROOT,
			env: {
				...process.env,
				NODE_ENV: '',
				TS_NODE_PREFER_TS_EXTS: 'true',
				DEMO_TIMEOUT_MS: '180000',
				DEMO_OUTPUT_DIR: outputDir,
			},
			// A hung demo only: its own limit (DEMO_TIMEOUT_MS) counts from when n8n is ready.
			timeoutMs: 450_000,
			// The demo stops its own n8n on SIGTERM.
			graceMs: 20_000,
		},
	);
	const output = stdout + stderr;
	const csvFile = join(outputDir, 'unpod-calls.csv');
	const csv = existsSync(csvFile) ? readFileSync(csvFile, 'utf8') : '';
	rmSync(outputDir, { recursive: true, force: true });
	// Each line names the contact's company and when the call ran (the first row: Ava Patel, Northwind).
	const [header, ...lines] = csv.trim().split('\n');
	expect(header).toBe(CSV_COLUMNS.join(','));
	expect(lines.find((line) => line.includes('"Ava Patel"'))).toMatch(/^"[^"]+","Ava Patel","Northwind",/);
	expect(output).toContain("OK: every imported contact's outcome arrived exactly once.");
	expect(output).toMatch(/tasks created \(one request per 100 rows\) +\| 11 /);
	expect(output).toMatch(/contacts in the first 12 rows of contacts\.csv +\| 12 /);
	expect(output).toContain('Imported 11 of 12 rows in 1 request; 1 row not created:');
	expect(code).toBe(0);
}, 480_000);

test('a chat message makes the agent call Dana; what Dana said reaches the model and the chat', async () => {
	const workflow = workflows.list.find((w) => w.id === 'aiagentcallandwait')!;
	const callNode = workflow.nodes.find((n) => n.name === 'Call and wait')!;
	expect(String(callNode.parameters?.toolDescription).startsWith(TOOL_DESCRIPTION)).toBe(true);
	h.server.callScripts = [{ number: DANA, end: 'completed', afterMs: 2000 }];

	const n8n = await startN8n();
	await n8n.setActive(workflow.id, true);
	const trigger = workflow.nodes.find((n) => n.type.endsWith('.chatTrigger'))!;
	const chat = await n8n.postWebhook(`${trigger.webhookId}/chat`, {
		action: 'sendMessage',
		sessionId: 'test-session',
		chatInput: 'Call Dana and ask when the technician may come',
	});
	expect({ status: chat.status, log: chat.status === 200 ? '' : n8n.logTail() }).toEqual({ status: 200, log: '' });

	// One call, to the allowed number, with what the model asked for.
	const creates = h.server.requestsTo('POST', '/tasks/');
	expect(creates).toHaveLength(1);
	expect(creates[0].body).toMatchObject({
		context: 'Ask when the technician may come on Tuesday',
		documents: [{ name: 'Dana Reyes', contact_number: DANA }],
	});
	const task = h.server.store.tasks.find((t) => t.input.contact_number === DANA)!;
	expect(task.status).toBe('completed');

	// The model's second request carries the call's outcome.
	expect(model.requests).toHaveLength(2);
	const [toolResult] = model.toolResults();
	expect(toolResult).toContain(task.task_id);
	expect(toolResult).toContain('"unpod_wait_status":"ended"');
	expect(toolResult).toContain(JSON.stringify(String(task.output.call_summary)).slice(1, -1));
	// The tool offered to the model says what it costs and how long it takes.
	const offered = model.requests[0].tools!.find((t) => /call_and_wait/i.test(t.function.name))!;
	expect(offered.function.description).toContain('paid call');
	expect(offered.function.parameters).toMatchObject({ properties: { contact: {}, what_to_ask: {} } });
	// And the chat gets the model's answer.
	expect(JSON.stringify(chat.data)).toContain('Dana answered.');
});
