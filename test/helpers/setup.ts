/** The usual pairing for engine and end-to-end tests: a local Unpod server and an n8n whose credentials point at it. */
import axios from 'axios';
import { startServer, UnpodServer } from '../../dev/server/server';
import { SEED } from '../../dev/server/seed';
import { TestClock } from './clock';
import { Engine } from '../../dev/harness/engine';
import { N8n } from '../../dev/harness/n8n';
import { RunResult } from '../../dev/harness/run-results';
import { waitFor } from './wait-for';
import { chain, N8nNode, Workflow } from '../../dev/harness/workflow-builders';

export const CREDENTIAL = { unpodApi: { id: 'unpodLocal', name: 'Unpod (local)' } };
export const BAD_TOKEN_CREDENTIAL = { unpodApi: { id: 'unpodBadToken', name: 'Unpod (wrong token)' } };
export const BAD_ORG_CREDENTIAL = { unpodApi: { id: 'unpodBadOrg', name: 'Unpod (unknown org)' } };
/** A working credential whose Webhook Secret is empty: the Call Events Trigger refuses it. */
export const NO_SECRET_CREDENTIAL = { unpodApi: { id: 'unpodNoSecret', name: 'Unpod (no webhook secret)' } };
/** The header and secret of the working credential, which the agent's webhook form must send. */
export const WEBHOOK_SECRET = { header: 'X-Unpod-Secret', value: 'local-webhook-secret-5f1c9a7e2b' };

/** A local Unpod server and where the test's workflows run: in this process, or in a real n8n. */
export interface Harness<Runner extends Engine | N8n = Engine> {
	server: UnpodServer;
	n8n: Runner;
	/** Every run so far, to check logs for secrets. */
	runs: RunResult[];
	run(id: string): Promise<RunResult>;
	close(): Promise<void>;
}

/**
 * Workflows a test file declares up front, saved at once: on n8n 2.x through the REST API of
 * the n8n the test starts, on 1.x by one `n8n import:workflow` (an n8n start-up of its own).
 */
export class Workflows {
	readonly list: Workflow[] = [];

	chain(id: string, nodes: N8nNode[]): string {
		this.list.push(chain(id, nodes));
		return id;
	}

	add(workflow: Workflow): string {
		this.list.push(workflow);
		return workflow.id;
	}
}

/** The tests' Unpod credentials (a working one, a wrong token, an unknown org), pointed at `server`. */
export function credentialsFor(server: UnpodServer) {
	const data = (overrides: Record<string, string> = {}) => ({
		baseUrl: server.url,
		apiToken: SEED.token,
		orgHandle: SEED.orgHandle,
		productId: SEED.productId,
		webhookHeaderName: WEBHOOK_SECRET.header,
		webhookSecret: WEBHOOK_SECRET.value,
		...overrides,
	});
	return [
		{ ...CREDENTIAL.unpodApi, type: 'unpodApi', data: data() },
		{ ...NO_SECRET_CREDENTIAL.unpodApi, type: 'unpodApi', data: data({ webhookSecret: '' }) },
		{ ...BAD_TOKEN_CREDENTIAL.unpodApi, type: 'unpodApi', data: data({ apiToken: 'wrong-token' }) },
		{ ...BAD_ORG_CREDENTIAL.unpodApi, type: 'unpodApi', data: data({ orgHandle: 'no-such-org' }) },
	];
}

/**
 * The local server and n8n's engine in this process, with the tests' credentials and
 * `workflows`: for what the nodes do (operations, items, errors, retries, requests).
 */
export async function startHarness(
	options: Parameters<typeof startServer>[0] = {},
	workflows?: Workflows,
	/** Runs move on this clock (TestClock.install()) instead of the wall clock's. */
	clock?: TestClock,
): Promise<Harness<Engine>> {
	const server = await startServer(options);
	const engine = new Engine();
	await engine.importCredentials(credentialsFor(server));
	if (workflows?.list.length) await engine.importWorkflows(workflows.list);
	return harness(server, engine, () => engine.dispose(), clock);
}

/**
 * This test file's harness (`startHarness`, in its beforeAll and afterAll), its runs on a test
 * clock that starts at `now`: the harness to use from the tests on. With `eachTestAtNow`, every
 * test starts at `now` again, the local server's traffic forgotten.
 */
export function harnessAt(
	now: number,
	workflows: Workflows,
	{ eachTestAtNow = false }: { eachTestAtNow?: boolean } = {},
): Harness<Engine> {
	const clock = TestClock.install();
	let started: Harness<Engine> | undefined;
	beforeAll(async () => {
		jest.setSystemTime(now);
		started = await startHarness({}, workflows, clock);
	});
	if (eachTestAtNow)
		beforeEach(() => {
			jest.setSystemTime(now);
			started?.server.resetTraffic();
		});
	afterAll(async () => {
		await started?.close();
		clock.uninstall();
	});
	const get = (): Harness<Engine> => {
		if (!started) throw new Error('The harness starts in beforeAll');
		return started;
	};
	return {
		get server() {
			return get().server;
		},
		get n8n() {
			return get().n8n;
		},
		get runs() {
			return get().runs;
		},
		run: async (id) => await get().run(id),
		close: async () => await get().close(),
	};
}

/**
 * The local server and a real n8n user folder with the package installed as a community
 * package: for what only an n8n process proves (loading, the editor, activation, webhooks).
 */
export async function startProcessHarness(
	options: Parameters<typeof startServer>[0] = {},
	workflows?: Workflows,
	/** More credentials (another service's stand-in), imported with the tests' own in one n8n process. */
	moreCredentials: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }> = [],
	/** More environment for n8n (the proxy and CA that lead its requests to other services' twins). */
	env: NodeJS.ProcessEnv = {},
): Promise<Harness<N8n>> {
	const server = await startServer(options);
	const n8n = await N8n.create(env);
	await n8n.importCredentials([...credentialsFor(server), ...moreCredentials]);
	if (workflows?.list.length) await n8n.importWorkflows(workflows.list);
	return harness(server, n8n, () => n8n.dispose());
}

function harness<Runner extends Engine | N8n>(
	server: UnpodServer,
	n8n: Runner,
	dispose: () => void,
	clock?: TestClock,
): Harness<Runner> {
	const runs: RunResult[] = [];
	return {
		server,
		n8n,
		runs,
		async run(id: string) {
			const result = clock ? await clock.drive(n8n.execute(id)) : await n8n.execute(id);
			runs.push(result);
			return result;
		},
		async close() {
			await server.stop();
			dispose();
		},
	};
}

/**
 * Points the seed agent's webhook form at a Call Events Trigger of a running n8n (the working
 * credential's secret header), once n8n answers there with the trigger's own 401: from then on
 * Unpod pushes every ending of the agent's calls to it. Returns the URL.
 */
export async function pushEndingsTo(server: UnpodServer, n8nUrl: string, webhookId: string): Promise<string> {
	const url = `${n8nUrl}/webhook/${webhookId}/unpod`;
	await waitFor(
		'the webhook URL',
		async () => (await axios.post(url, {}, { validateStatus: () => true })).status === 401,
	);
	server.webhooks.configure(SEED.agentHandle, {
		enable_webhook: true,
		webhook_url: url,
		headers: [{ header_name: WEBHOOK_SECRET.header, header_value: WEBHOOK_SECRET.value }],
	});
	return url;
}
