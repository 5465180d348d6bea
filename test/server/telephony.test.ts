/** The local Unpod server's telephony numbers, provider configurations and call logs (cdr/ of the spec, call-logs/ of the source): spoken to over HTTP, no n8n. */
import { SEED } from '../../dev/server/seed';
import { startServer, UnpodServer } from '../../dev/server/server';
import { createTasks, platformApi } from './platform-client';

let server: UnpodServer;
const api = () => platformApi(server);
const create = (body: Record<string, unknown>, path?: string) => createTasks(server, body, path);

beforeEach(async () => {
	server = await startServer();
});
afterEach(async () => {
	await server.stop();
});

describe('telephony numbers, provider configurations and call logs', () => {
	test("numbers as openapi 677bf31 has them: the organization's own in any state and the pool's free ones; the pool's only without Org-Handle", async () => {
		const res = await api().get('/telephony/numbers/');
		expect(res.data.data.map((n: { id: number; state: string }) => [n.id, n.state])).toEqual([
			[SEED.poolNumberId, 'NOT_ASSIGNED'],
			[SEED.sharedPoolNumberId, 'NOT_ASSIGNED'],
			[185, 'ASSIGNED'],
			[186, 'NOT_ASSIGNED'],
		]);
		const pool = await api().get('/telephony/numbers/', { headers: { 'Org-Handle': '' } });
		expect(pool.data.data.map((n: { id: number }) => n.id)).toEqual([SEED.sharedPoolNumberId]);
	});

	test('numbers of the source shape: the free ones of the organization and of none, without paging', async () => {
		server.behaviour.shapes = 'source';
		const res = await api().get('/telephony/numbers/', { params: { page: 2, page_size: 1 } });
		expect(res.status).toBe(200);
		expect(res.data.data).toEqual([
			{ id: SEED.poolNumberId, number: '+14155550123', active: true },
			{ id: SEED.sharedPoolNumberId, number: '+14155550124', active: true },
		]);
		// The view forgets to return its 400: without Org-Handle it lists the numbers of no organization.
		const noOrg = await api().get('/telephony/numbers/', { headers: { 'Org-Handle': '' } });
		expect(noOrg.data.data.map((n: { id: number }) => n.id)).toEqual([SEED.sharedPoolNumberId]);
	});

	test('provider configurations of the source shape: the organization named by Org-Handle, keys included; 400 without it', async () => {
		server.behaviour.shapes = 'source';
		const res = await api().get('/telephony/provider-configurations/');
		expect(res.data.data.map((c: { id: number; active: boolean }) => [c.id, c.active])).toEqual([
			[SEED.activeCredentialId, true],
			[SEED.inactiveCredentialId, false],
		]);
		expect(res.data.data[0]).toMatchObject({
			name: 'Twilio Main',
			provider_details: { name: 'Twilio' },
			api_key: expect.any(String),
		});
		const none = await api().get('/telephony/provider-configurations/', { headers: { 'Org-Handle': '' } });
		expect(none.status).toBe(400);
	});

	test('provider configurations as OpenAPI 2.0.0 has them: slug, account and token in; the token never out', async () => {
		const path = '/telephony/providers-configurations/';
		expect((await api().get('/telephony/providers/')).data.data).toEqual([
			{ id: 1, name: 'Twilio', slug: 'twilio' },
			{ id: 2, name: 'Plivo', slug: 'plivo' },
			{ id: 3, name: 'Exotel', slug: 'exotel' },
		]);
		expect((await api().get('/telephony/provider-configurations/')).status).toBe(404);
		const missing = await api().post(path, { auth_token: '' });
		expect([missing.status, missing.data]).toEqual([
			400,
			{
				status_code: 400,
				message: 'Provider configuration creation failed.',
				errors: {
					provider: ['This field is required.'],
					account_sid: ['This field is required.'],
					auth_token: ['This field may not be blank.'],
				},
			},
		]);
		const unknown = await api().post(path, { provider: 'nokia', account_sid: 'AC1', auth_token: 'tok-123456' });
		expect(unknown.data.errors).toEqual({ provider: ['Object with slug=nokia does not exist.'] });
		const created = await api().post(path, { provider: 'twilio', account_sid: 'AC9', auth_token: 'tok-secret-1' });
		expect(created.status).toBe(201);
		expect(created.data).toEqual({
			status_code: 201,
			message: 'Provider configuration created successfully.',
			data: {
				id: expect.any(Number),
				provider: 'twilio',
				account_sid: 'AC9',
				created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
			},
		});
		const { id } = created.data.data;
		expect(server.store.credentials.get(id)).toMatchObject({ auth_token: 'tok-secret-1', org: SEED.orgHandle });
		const list = await api().get(path);
		expect(list.data.data.map((c: { id: number }) => c.id)).toEqual([
			SEED.activeCredentialId,
			SEED.inactiveCredentialId,
			id,
		]);
		const blank = await api().patch(`${path}${id}/`, { account_sid: ' ' });
		expect([blank.status, blank.data.errors]).toEqual([400, { account_sid: ['This field may not be blank.'] }]);
		const patched = await api().patch(`${path}${id}/`, { auth_token: 'tok-secret-2' });
		expect(patched.data.data).toEqual(created.data.data);
		expect(server.store.credentials.get(id)!.auth_token).toBe('tok-secret-2');
		const one = await api().get(`${path}${id}/`);
		expect(JSON.stringify([list.data, one.data, patched.data])).not.toMatch(/tok-secret|local-twilio-secret/);
		expect((await api().delete(`${path}${id}/`)).status).toBe(204);
		expect((await api().get(`${path}${id}/`)).data).toEqual({ status_code: 404, message: 'Not found.' });
		// Another organization's credential is not found either.
		expect((await api().get(`${path}${SEED.otherOrgCredentialId}/`)).status).toBe(404);
	});

	test("the call log at cdr/ as the spec answers it: Org-Handle only, the spec's two filters, pages of 20 with a count", async () => {
		const noOrg = await api().get('/cdr/', { headers: { 'Org-Handle': '' } });
		expect(noOrg.status).toBe(400);
		const noProduct = await api().get('/cdr/', { headers: { 'Product-ID': '' } });
		expect(noProduct.status).toBe(200);
		expect(noProduct.data).toEqual({
			count: 6,
			status_code: 200,
			message: 'Call logs fetched successfully',
			data: expect.any(Array),
		});
		const [newest] = noProduct.data.data;
		expect(Object.keys(newest).sort()).toEqual(
			[
				'id',
				'call_status',
				'end_reason',
				'call_type',
				'bridge',
				'creation_time',
				'start_time',
				'end_time',
				'call_duration',
				'source_number',
				'destination_number',
				'failure_source',
				'sip_cause',
			].sort(),
		);
		expect(newest).toMatchObject({
			bridge: { id: 1, name: 'Main Line' },
			creation_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
			end_time: expect.stringMatching(/\.\d{6}Z$/),
			failure_source: null,
			sip_cause: null,
		});
		expect(noProduct.data.data.map((l: { call_status: string }) => l.call_status)).toEqual([
			'completed',
			'completed',
			'notConnected',
			'failed',
			'completed',
			'completed',
		]);
		const page2 = await api().get('/cdr/', { params: { page: 2, page_size: 2, call_type: 'inbound' } });
		expect(page2.data).toMatchObject({ count: 3, data: [expect.objectContaining({ call_type: 'inbound' })] });
		expect(page2.data).not.toHaveProperty('next');
		const missed = await api().get('/cdr/', { params: { call_status: 'notConnected' } });
		expect(missed.data.data).toEqual([
			expect.objectContaining({
				call_type: 'inbound',
				failure_source: 'callee',
				sip_cause: '480 Temporarily Unavailable',
			}),
		]);
		for (const call_status of ['not_connected', 'COMPLETED', 'missed']) {
			const bad = await api().get('/cdr/', { params: { call_status } });
			expect(bad.status).toBe(400);
		}
		const oldPath = await api().get('/call-logs/');
		expect(oldPath.status).toBe(404);
		server.behaviour.shapes = 'source';
		expect((await api().get('/cdr/')).status).toBe(404);
		expect((await api().get('/call-logs/')).status).toBe(200);
	});

	test('call logs of the source shape: both headers required, pages of 20 with next and previous, filters with their own meanings', async () => {
		server.behaviour.shapes = 'source';
		const noProduct = await api().get('/call-logs/', { headers: { 'Product-ID': '' } });
		expect(noProduct.status).toBe(400);
		expect(noProduct.data.message).toBe('Product ID is required in Product-Id header');
		const all = await api().get('/call-logs/');
		expect(all.data).toMatchObject({ count: 6, next: null, previous: null });
		expect(all.data.data.map((l: { call_type: string }) => l.call_type)).toEqual([
			'outbound',
			'inbound',
			'inbound',
			'outbound',
			'inbound',
			'outbound',
		]);
		const page2 = await api().get('/call-logs/', { params: { page: 2, page_size: 2, call_type: 'INBOUND' } });
		expect(page2.data.count).toBe(3);
		expect(page2.data.next).toBeNull();
		expect(page2.data.previous).toMatch(/\/api\/v2\/platform\/call-logs\/\?page=1&page_size=2$/);
		// Dates only: a start filter late in the day still takes that whole day.
		const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
		const d = twoDaysAgo.toISOString();
		const dayFirst = `${d.slice(8, 10)}-${d.slice(5, 7)}-${d.slice(0, 4)} 23:59:59`;
		const since = await api().get('/call-logs/', { params: { start_time: dayFirst } });
		expect(since.data.count).toBe(2);
		const bad = await api().get('/call-logs/', { params: { start_time: '2026-11-20 10:00:00' } });
		expect(bad.status).toBe(400);
		expect(bad.data.error).toMatch(/does not match format '%d-%m-%Y %H:%M:%S'/);
		const id = all.data.data[0].id;
		const byId = await api().get('/call-logs/', { params: { call_id: String(id).slice(0, 3) } });
		expect(byId.data.count).toBe(6);
		const bridge = await api().get('/call-logs/', { params: { bridge: 'main' } });
		expect(bridge.data.count).toBe(6);
		expect(bridge.data.data[0].bridge).toEqual({ id: 1, name: 'Main Line' });
	});

	test('an ended task and an inbound call are logged; the inbound call sends its live events with no task_id', async () => {
		const received: any[] = [];
		const sink = await startServer({ seed: false });
		server.webhooks.configure(SEED.secondAgentHandle, {
			enable_webhook: true,
			webhook_url: `${sink.url}/__sim/sink`,
			headers: {},
		});
		const log = server.calls.inboundCall({ from: '+442079460777' });
		await server.webhooks.settled();
		received.push(...sink.sink);
		await sink.stop();
		expect(received.map((b) => [b.event, b.data.task_id, b.data.call_type, b.data.room])).toEqual([
			['call_started', '', 'inbound', `room-inbound-${log.id}`],
			['call_hang_up', '', 'inbound', `room-inbound-${log.id}`],
		]);
		const created = await create({ documents: [{ name: 'Zed', contact_number: '+14155550166' }] }, 'tasks/create/');
		server.store.finishTask(server.store.tasksById.get(created.data.data.task_ids[0])!, 'completed');
		const newest = await api().get('/cdr/', { params: { page_size: 2 } });
		expect(newest.data.data.map((l: any) => [l.call_type, l.destination_number, l.call_status])).toEqual([
			['outbound', '+14155550166', 'completed'],
			['inbound', '+442079460777', 'completed'],
		]);
		server.behaviour.shapes = 'source';
		const older = await api().get('/call-logs/', { params: { page_size: 2 } });
		expect(older.data.data.map((l: any) => l.agent.name)).toEqual(['Sales Assistant', 'Support Bot']);
	});
});
