/** What the demo and the screenshots start: the local Unpod server and a real n8n holding the example workflows. */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { EXAMPLES, exampleFiles, loadExample } from '../dev/harness/examples';
import { N8n } from '../dev/harness/n8n';
import { N8N_VERSION } from '../dev/harness/paths';
import { Workflow } from '../dev/harness/workflow-builders';
import { N8nServer } from '../dev/harness/n8n-server';
import { startServer, UnpodServer } from '../dev/server/server';
import { SEED } from '../dev/server/seed';
import { ANALYSED_AGENT } from '../dev/server/postCall';
import { DO_NOT_CALL_COLUMNS } from '../dev/harness/campaign';
import { SHEET_CREDENTIAL, startStandInSheet, type StandInSheet } from './demo-sheet';

/** The credential the demo's n8n holds, pointed at the local server. */
export const DEMO_CREDENTIAL = { id: 'unpodLocal', name: 'Unpod (local demo server)' };
/** The credential's Webhook Secret, which the push trigger needs before it publishes. */
export const DEMO_WEBHOOK_SECRET = 'demo-webhook-secret-3f9a61c0d2b847e5';

/** How the demo's calls go: each ends 2 to 10 s after it was created, and exactly every 5th fails. */
export const DEMO_CALLS = { minMs: 2000, maxMs: 10_000, failRate: 0.2 };

/** The outcomes CSV's header, as the example workflow writes its lines (times in UTC, ISO 8601). */
export const CSV_COLUMNS = [
	'task_id',
	'contact_name',
	'contact_company',
	'contact_number',
	'contact_email',
	'status',
	'call_status',
	'start_time',
	'end_time',
	'duration_seconds',
	'outcome',
	'interest_level',
	'next_action',
	'recording_url',
	'call_summary',
	'do_not_call',
];

/** The contact who asks, on the call, not to be called again (contacts.csv's second row, Ben Müller). */
export const SAYS_NO = { name: 'Ben Müller', number: '+12125550141' };

export interface DemoEnvironment {
	server: UnpodServer;
	n8n: N8n;
	n8nServer: N8nServer;
	n8nVersion: string;
	rows: number;
	outcomesFile: string;
	workflows: Workflow[];
	/** The "Unpod do-not-call" Data Table. */
	doNotCallTable: string;
	/** The stand-in Google Sheet the sheet examples use. */
	sheet: StandInSheet;
	importId: string;
	outcomesId: string;
	/** Stops n8n and the local server and removes n8n's folder. */
	stop(): Promise<void>;
}

/** How much faster a scheduled call's wait passes on the demo's local server. */
export const DEMO_TIME_SCALE = 3600;

export async function startDemoEnvironment(
	options: { rows?: number; say?: (text: string) => void } = {},
): Promise<DemoEnvironment> {
	const say = options.say ?? (() => undefined);
	const { minMs, maxMs, failRate } = DEMO_CALLS;
	say(
		`Starting the local Unpod server (it ends each call ${minMs / 1000} to ${maxMs / 1000} s after it is created; ` +
			`every ${Math.round(1 / failRate)}th call fails)`,
	);
	// The agent extracts the opt-out (its Analysis settings) and places no call of its own, so every
	// call the demo counts is one the import placed.
	// Contacts outside their calling hours are created for their next legal time, up to a day ahead:
	// the local server lets an hour of such a wait pass in a second, so the demo ends at any hour.
	say(`The local server lets a scheduled call's wait pass ${DEMO_TIME_SCALE} times faster (an hour in a second)`);
	const server = await startServer({
		timeScale: DEMO_TIME_SCALE,
		autoFinish: DEMO_CALLS,
		agentSettings: {
			[SEED.agentHandle]: { ...ANALYSED_AGENT, follow_up_enabled: false, callback_enabled: false },
		},
	});
	// What has started, stopped in reverse order by stop(), or at once when a later step fails:
	// a failed start leaves no process, port or temp folder behind.
	const stops: Array<() => unknown> = [() => server.stop()];
	const stopAll = async () => {
		for (const stop of stops.reverse())
			await Promise.resolve()
				.then(stop)
				.catch(() => undefined);
		stops.length = 0;
	};
	try {
		server.calls.callScripts = [{ number: SAYS_NO.number, end: 'completed', afterMs: 4000, outcome: 'do_not_call' }];
		const n8n = await N8n.create();
		stops.push(() => n8n.dispose());
		// n8n's Google Sheets node reaches the stand-in sheet through n8n's proxy support; Unpod's
		// local server (127.0.0.1) is reached directly.
		const sheet = await startStandInSheet();
		stops.push(() => sheet.stop());
		Object.assign(n8n.env, sheet.env);
		const filesDir = join(n8n.folder, 'files');
		mkdirSync(filesDir, { recursive: true });
		n8n.env.N8N_RESTRICT_FILE_ACCESS_TO = filesDir;
		const contactsFile = join(filesDir, 'contacts.csv');
		if (options.rows) {
			const lines = readFileSync(join(EXAMPLES, 'contacts.csv'), 'utf8').trim().split('\n');
			writeFileSync(contactsFile, `${lines.slice(0, options.rows + 1).join('\n')}\n`);
		} else copyFileSync(join(EXAMPLES, 'contacts.csv'), contactsFile);
		const rows = readFileSync(contactsFile, 'utf8').trim().split('\n').length - 1;
		const outcomesFile = join(filesDir, 'unpod-calls.csv');
		writeFileSync(outcomesFile, `${CSV_COLUMNS.join(',')}\n`);

		const credential = DEMO_CREDENTIAL;
		const data = {
			baseUrl: server.url,
			apiToken: SEED.token,
			orgHandle: SEED.orgHandle,
			productId: SEED.productId,
			webhookSecret: DEMO_WEBHOOK_SECRET,
		};
		await n8n.importCredentials([{ ...credential, type: 'unpodApi', data }, sheet.credential]);
		const n8nVersion = N8N_VERSION;
		say(`n8n ${n8nVersion} is starting with the example workflows`);
		const n8nServer = await N8nServer.start(n8n);
		stops.push(() => n8nServer.stop());
		// The shared do-not-call list the examples read before they call and write an opt-out to.
		const doNotCallTable = await n8nServer.dataTables.create('Unpod do-not-call', DO_NOT_CALL_COLUMNS, []);
		const workflows = exampleFiles().map((file) =>
			loadExample(file, {
				credential,
				filesDir,
				doNotCallTable,
				spreadsheet: sheet.spreadsheetId,
				credentials: { googleSheetsOAuth2Api: SHEET_CREDENTIAL },
			}),
		);
		await n8n.importWorkflows(workflows);
		const importId = workflows.find((w) => w.name.includes('contacts CSV'))!.id;
		const outcomesId = workflows.find((w) => w.name.includes('CSV log'))!.id;
		const outcomesName = workflows.find((w) => w.id === outcomesId)!.name;
		// Activation runs the trigger's first poll, which only learns what exists.
		await n8nServer.setActive(
			outcomesId,
			true,
			() => server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length,
		);
		say(`n8n is ready; "${outcomesName}" is active and made its first poll`);
		return {
			server,
			n8n,
			n8nServer,
			n8nVersion,
			rows,
			outcomesFile,
			workflows,
			doNotCallTable,
			sheet,
			importId,
			outcomesId,
			stop: stopAll,
		};
	} catch (error) {
		await stopAll();
		throw error;
	}
}
