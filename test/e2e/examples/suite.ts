/**
 * What the example workflows' tests share: one real n8n with every example imported, the local
 * Unpod server, the model's stand-in, a mail sink, and one running n8n, started by the first
 * test that needs it.
 */
import { copyFileSync, mkdirSync } from 'fs';
import { join } from 'path';
import { DO_NOT_CALL_COLUMNS } from '../../../dev/harness/campaign';
import { EXAMPLES, exampleFiles, loadExample, pickDataTables } from '../../../dev/harness/examples';
import type { N8n } from '../../../dev/harness/n8n';
import { N8nServer } from '../../../dev/harness/n8n-server';
import { createInSecondSpace } from '../../helpers/nodes';
import { OpenAiStandIn } from '../../helpers/openai-standin';
import { CREDENTIAL, Harness, startProcessHarness, Workflows } from '../../helpers/setup';
import { SmtpSink } from '../../helpers/smtp-sink';

export const DANA = '+12125550181';

// Not an example: the renamed parameters and the options read for each item, in real n8n's own
// parameter resolution (each version's), through Set and Split Out as a sheet would give rows.
export const perItemRows = [
	{ name: 'Berlin Office', phone: '030 1234567', country: '+49' },
	{ name: 'London Lead', phone: '020 7946 0123', country: '+44' },
];
export const perItem = {
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
/** The campaign page's login (the Webhook node's Basic Auth) and the daily report's mail server. */
const PAGE_LOGIN = { id: 'campaignPageLogin', name: 'Campaign page login' };
export const PAGE_USER = { username: 'campaign', password: 'a-long-page-password-7c41e' };
const SMTP = { id: 'smtpLocalSink', name: 'SMTP (local sink)' };
export const SERVICES = { httpBasicAuth: PAGE_LOGIN, smtp: SMTP };

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

export class ExamplesSuite {
	h!: Harness<N8n>;
	/** The folder n8n may read and write files in (N8N_RESTRICT_FILE_ACCESS_TO). */
	filesDir!: string;
	model!: OpenAiStandIn;
	smtp!: SmtpSink;
	readonly workflows = new Workflows();
	private running?: N8nServer;

	async start(): Promise<void> {
		this.model = await new OpenAiStandIn(
			{
				tool: (names) => names.find((n) => /call_and_wait/i.test(n)),
				arguments: { contact: 'Dana Reyes', what_to_ask: 'Ask when the technician may come on Tuesday' },
			},
			(result) => `Dana answered. Tool result: ${result}`,
		).start();
		this.smtp = await new SmtpSink().start();
		this.h = await startProcessHarness({}, undefined, [
			{ ...OPENAI, type: 'openAiApi', data: { apiKey: 'sk-local-standin', url: this.model.url } },
			{ ...PAGE_LOGIN, type: 'httpBasicAuth', data: { user: PAGE_USER.username, password: PAGE_USER.password } },
			{
				...SMTP,
				type: 'smtp',
				data: { user: '', password: '', host: '127.0.0.1', port: this.smtp.port, secure: false, disableStartTls: true },
			},
		]);
		this.filesDir = join(this.h.n8n.folder, 'files');
		mkdirSync(this.filesDir, { recursive: true });
		copyFileSync(join(EXAMPLES, 'contacts.csv'), join(this.filesDir, 'contacts.csv'));
		this.h.n8n.env.N8N_RESTRICT_FILE_ACCESS_TO = this.filesDir;
		// n8n 2.x's SQLite pool; on 1.x, whose default driver fails the Data Table node's updates
		// ("SAVEPOINT typeorm_-2"), what the README asks of Data Table users there.
		this.h.n8n.env.DB_SQLITE_POOL_SIZE = '3';
		for (const file of exampleFiles())
			this.workflows.add(
				forTheTest(
					loadExample(file, {
						credential: CREDENTIAL.unpodApi,
						filesDir: this.filesDir,
						credentials: SERVICES,
						callingHours: false,
						// The AI agent's allow-listed people carry their consent: its tool keeps Consent as shipped.
						...(file === 'ai-agent-call-and-wait.json' ? {} : { consent: false }),
					}),
				),
			);
		this.workflows.chain(perItem.id, perItem.nodes);
		await this.h.n8n.importWorkflows(this.workflows.list);
	}

	/**
	 * The shared "Unpod do-not-call" Data Table, made once in the running n8n and picked in every
	 * example that reads or writes it (imported again with it picked).
	 */
	async doNotCallTable(): Promise<string> {
		if (this.doNotCall) return this.doNotCall;
		const n8n = await this.startN8n();
		this.doNotCall = await n8n.dataTables.create('Unpod do-not-call', DO_NOT_CALL_COLUMNS, []);
		const using = this.workflows.list.filter((w) => w.nodes.some((n) => /do-not-call/i.test(n.name)));
		for (const workflow of using) pickDataTables(workflow, { doNotCallTable: this.doNotCall });
		await this.h.n8n.importWorkflows(using);
		return this.doNotCall;
	}

	private doNotCall?: string;

	/** One running n8n for the tests that need one, started by the first of them. */
	async startN8n(): Promise<N8nServer> {
		return (this.running ??= await N8nServer.start(this.h.n8n));
	}

	async stop(): Promise<void> {
		await this.running?.stop();
		await this.h?.close();
		await this.model?.stop();
		await this.smtp?.stop();
	}
}
