/**
 * The Data Table campaign's runner in queue mode: its slices run on two workers at once, each
 * taking the rows it read with one update, and its figures written by compare-and-set on
 * PostgreSQL: every contact called once, and the figures count each row once.
 */
import { randomUUID } from 'crypto';
import { startServer, UnpodServer } from '../../dev/server/server';
import { SEED } from '../../dev/server/seed';
import { loadExample, pathFrom } from '../../dev/harness/examples';
import { CAMPAIGN_COLUMNS, DO_NOT_CALL_COLUMNS, FIGURES_COLUMNS, keptFigures } from '../../dev/harness/campaign';
import { CREDENTIAL } from '../helpers/setup';
import type { Workflow } from '../../dev/harness/workflow-builders';
import { QueueCluster } from './cluster';
import { testNote } from '../helpers/notes';

const CONTACTS = 1_000;
const AT_ONCE = 4;
const SCHEDULE = 'Every hour: the next slice';

let server: UnpodServer;
let cluster: QueueCluster;

beforeAll(async () => {
	server = await startServer();
	cluster = await QueueCluster.start(server, []);
});

afterAll(async () => {
	await cluster?.close();
	await server?.stop();
});

/** The example's runner and figures, started by a webhook instead of its schedule (to start many at once). */
function runner(table: string, figuresTable: string, doNotCallTable: string): Workflow {
	const example = loadExample('data-table-campaign.json', {
		callingHours: false,
				consent: false,
		credential: CREDENTIAL.unpodApi,
		filesDir: cluster.main.n8n.folder,
		dataTable: table,
		figuresTable,
		doNotCallTable,
	});
	const webhook = {
		id: 'campaign-next-slice',
		name: 'Next slice now',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0] as [number, number],
		webhookId: randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path: 'campaign-next-slice',
			responseMode: 'lastNode',
			responseData: 'noData',
			options: {},
		},
	};
	// What the schedule runs, with the webhook in the schedule's place.
	const { nodes, connections } = pathFrom(example, SCHEDULE);
	connections['Next slice now'] = connections[SCHEDULE];
	delete connections[SCHEDULE];
	return {
		...example,
		id: 'queueCampaignRunner',
		nodes: [webhook, ...nodes.filter((n) => n.name !== SCHEDULE)],
		connections,
	};
}

test(`the campaign's slices on two workers at once: ${CONTACTS.toLocaleString('en')} contacts each called once, the figures counting each once`, async () => {
	const contacts = Array.from({ length: CONTACTS }, (_, i) => ({
		name: `Queue Contact ${i + 1}`,
		phone: `+1212580${String(i).padStart(4, '0')}`,
		status: 'new',
	}));
	const table = await cluster.main.dataTables.create('Queue campaign', CAMPAIGN_COLUMNS, contacts);
	// The figures' total row, as the campaign's first start makes it (runs of one wave would each
	// make one, finding none).
	const figuresTable = await cluster.main.dataTables.create('Queue campaign figures', FIGURES_COLUMNS, [
		{ kind: 'total', figures: '{}', through: 0 },
	]);
	const doNotCall = await cluster.main.dataTables.create('Queue do-not-call', DO_NOT_CALL_COLUMNS, []);
	const workflow = runner(table, figuresTable, doNotCall);
	await cluster.main.n8n.importWorkflows([workflow]);
	await cluster.activate(workflow.id);

	const before = cluster.executionsRun();
	let waves = 0;
	let rows = await cluster.main.dataTables.rows(table);
	// Runs started four at once, wave after wave, until no row is new: runs of one wave read the
	// same next rows, and only one of them takes each.
	while (rows.some((r) => r.status === 'new') && waves < 40) {
		const answers = await Promise.all(
			Array.from({ length: AT_ONCE }, () => cluster.webhook('campaign-next-slice', {})),
		);
		expect(answers.map((a) => a.status)).toEqual(Array(AT_ONCE).fill(200));
		waves++;
		rows = await cluster.main.dataTables.rows(table);
	}
	const after = cluster.executionsRun();
	const ranOn = Object.fromEntries(cluster.workers.map((w) => [w.name, after[w.name].length - before[w.name].length]));

	// Every row called, once: one task per contact, no document sent twice (so the duplicate
	// guard had nothing to catch), and each row holding its contact's task.
	const tasks = server.store.tasks.filter((t) => String(t.input.contact_number).startsWith('+1212580'));
	expect(tasks).toHaveLength(CONTACTS);
	expect(new Set(tasks.map((t) => t.input.contact_number)).size).toBe(CONTACTS);
	const sent = server
		.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`)
		.flatMap((r) => (r.body as { documents: unknown[] }).documents);
	expect(sent).toHaveLength(CONTACTS);
	const taskOf = new Map(tasks.map((t) => [String(t.input.contact_number), t.task_id]));
	expect(rows.filter((r) => r.status !== 'calling' || r.task_id !== taskOf.get(r.phone))).toEqual([]);
	// Slices ran on both workers.
	for (const worker of cluster.workers) expect(ranOn[worker.name]).toBeGreaterThan(0);
	// The figures: each row counted once, whichever execution added them up.
	const figureRows = await cluster.main.dataTables.rows(figuresTable);
	expect(keptFigures(figureRows).stages).toMatchObject({ calling: CONTACTS, not_created: 0 });
	const changes = figureRows.filter((r) => r.kind === 'change').length;
	testNote(
		`Queue mode: ${CONTACTS} contacts in ${waves} waves of ${AT_ONCE} runs (${waves * AT_ONCE} executions: ${JSON.stringify(ranOn)}); ` +
			`${sent.length} documents sent, ${tasks.length} tasks; ${changes} figures changes left to add up`,
	);
});
