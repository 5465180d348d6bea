/**
 * Unpod Bridge's provider credentials (in both path spellings), the provider catalogue and numbers
 * attached to agents, in n8n's engine against the local server; and no carrier secret in any item
 * or execution data.
 */
import { outputOf } from '../../../dev/harness/run-results';
import { N8nNode } from '../../../dev/harness/workflow-builders';
import { agentRef, unpodNode } from '../../helpers/nodes';
import { Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const bridge = (name: string, parameters: Record<string, unknown>, extra: Partial<N8nNode> = {}): N8nNode =>
	unpodNode('bridge', name, parameters, { executeOnce: true, ...extra });
const credentialRef = (value: string) => ({ __rl: true, mode: 'id', value });
const NEW_KEY = 'AC-typed-in-key-5150';
const NEW_SECRET = 'typed-in-secret-8282';

const workflows = new Workflows();
const credentials = workflows.chain('providerCredentials', [
	bridge('Providers', { resource: 'provider', operation: 'getAll', returnAll: true }),
	bridge('All', { resource: 'providerCredential', operation: 'getAll', returnAll: true }),
	bridge('One', {
		resource: 'providerCredential',
		operation: 'get',
		providerCredential: credentialRef(String(SEED.activeCredentialId)),
	}),
	bridge('Create', {
		resource: 'providerCredential',
		operation: 'create',
		name: 'Plivo Backup',
		provider: { __rl: true, mode: 'list', value: '2' },
		apiKey: NEW_KEY,
		apiSecret: NEW_SECRET,
	}),
	bridge('Update', {
		resource: 'providerCredential',
		operation: 'update',
		providerCredential: credentialRef('={{ $json.id }}'),
		updateFields: { name: 'Plivo Backup (off)', active: false },
	}),
	bridge('Delete', {
		resource: 'providerCredential',
		operation: 'delete',
		providerCredential: credentialRef('={{ $json.id }}'),
	}),
]);
const unknownCredential = workflows.chain('providerCredentialUnknown', [
	bridge('Fail', { resource: 'providerCredential', operation: 'get', providerCredential: credentialRef('999') }),
]);
const numbers = workflows.chain('numbersAttach', [
	bridge('Attach', {
		resource: 'number',
		operation: 'attach',
		phoneNumbers: '+14155550123, +19995550000',
		agent: agentRef(SEED.agentHandle),
	}),
	bridge('Detach', { resource: 'number', operation: 'detach', phoneNumbers: '+14155550123' }),
]);
const noneAttached = workflows.chain('numbersNone', [
	bridge('Fail', {
		resource: 'number',
		operation: 'attach',
		phoneNumbers: '+19995550000',
		agent: agentRef(SEED.agentHandle),
	}),
]);
let h: Harness;
beforeAll(async () => {
	h = await startHarness({}, workflows);
});
afterAll(async () => {
	await h?.close();
});
afterEach(() => h.server.resetTraffic());

/** Every seeded carrier secret that appears anywhere in what the run produced. */
const secretsIn = (value: unknown) => SEED.providerSecrets.filter((s) => JSON.stringify(value).includes(s));

test.each(['source', 'docs'] as const)(
	"provider credentials against Unpod's %s path spelling: every operation, and the carriers' secrets in none of it",
	async (shapes) => {
		h.server.behaviour.shapes = shapes;
		const result = await h.run(credentials);
		expect(result.exitCode).toBe(0);
		expect(outputOf(result, 'Providers').map((p) => p.name)).toEqual(['Twilio', 'Plivo', 'Exotel']);
		const all = outputOf(result, 'All');
		expect(all.map((c) => c.id)).toEqual([SEED.activeCredentialId, SEED.inactiveCredentialId]);
		expect(outputOf(result, 'One')[0]).toMatchObject({
			id: SEED.activeCredentialId,
			name: 'Twilio Main',
			active: true,
		});
		const created = outputOf(result, 'Create')[0];
		expect(created).toMatchObject({ name: 'Plivo Backup', provider: 2, active: true });
		expect(outputOf(result, 'Update')[0]).toMatchObject({ id: created.id, name: 'Plivo Backup (off)', active: false });
		expect(outputOf(result, 'Delete')).toEqual([{ deleted: true, id: created.id }]);
		expect(h.server.store.credentials.has(Number(created.id))).toBe(false);

		// What Unpod answered carried the secrets; no item and nothing of the execution does.
		for (const row of [...all, created]) {
			expect(Object.keys(row)).not.toEqual(expect.arrayContaining(['api_key']));
			expect(row).not.toHaveProperty('api_secret');
			expect(row).not.toHaveProperty('meta_json');
		}
		expect(secretsIn(result)).toEqual([]);
		expect(JSON.stringify(result)).not.toContain(NEW_SECRET);
		const [post] = h.server.requests.filter((r) => r.method === 'POST');
		expect(post.body).toEqual({ name: 'Plivo Backup', provider: 2, api_key: NEW_KEY, api_secret: NEW_SECRET });
		const spelling = shapes === 'docs' ? 'providers-configurations' : 'provider-configurations';
		expect(
			h.server.requests
				.filter((r) => (r.status ?? 500) < 300 && r.path.includes('configurations/'))
				.every((r) => r.path.includes(spelling)),
		).toBe(true);
	},
);

test('an unknown provider credential is an error naming it, with no secret in it', async () => {
	const result = await h.run(unknownCredential);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error).toMatchObject({ httpCode: '404' });
	expect(result.resultData?.error.message).toMatch(/provider credential "999"/);
	expect(secretsIn(result)).toEqual([]);
});

test('numbers attach to an agent and detach: one item per number, with what became of it', async () => {
	const result = await h.run(numbers);
	expect(result.exitCode).toBe(0);
	expect(outputOf(result, 'Attach')).toEqual([
		{
			number_id: SEED.poolNumberId,
			number: '+14155550123',
			connection_state: 'CONNECTED',
			agent_id: SEED.agentHandle,
			ok: true,
			error: null,
		},
		expect.objectContaining({ number: '+19995550000', ok: false, error: 'Number not found for this organization.' }),
	]);
	expect(outputOf(result, 'Detach')).toEqual([expect.objectContaining({ number: '+14155550123', ok: true })]);
	const [attach, detach] = h.server.requests.filter((r) => r.method === 'POST');
	expect(attach.body).toEqual({ numbers: ['+14155550123', '+19995550000'], agent_id: SEED.agentHandle });
	expect(attach.status).toBe(201);
	expect(detach.body).toEqual({ numbers: ['+14155550123'] });
});

test('no number attached: Unpod answers 400 and the node fails with its message', async () => {
	const result = await h.run(noneAttached);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error).toMatchObject({ httpCode: '400' });
	expect(result.resultData?.error.message).toMatch(/No number was attached/);
});
