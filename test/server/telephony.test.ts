/** The local Unpod server's telephony numbers, provider configurations and call logs, as the source answers them: spoken to over HTTP, no n8n. */
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

describe('telephony numbers, provider configurations and call logs, as the source answers them', () => {
	test('numbers: the free ones of the organization and of none, without paging', async () => {
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

	test('provider configurations: the organization named by Org-Handle, keys included; 400 without it', async () => {
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

	test('call logs: both headers required, pages of 20 with next and previous, filters with their own meanings', async () => {
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
		const created = await create({ documents: [{ name: 'Zed', contact_number: '+14155550166' }] });
		server.store.finishTask(server.store.tasksById.get(created.data.data.task_ids[0])!, 'completed');
		const newest = await api().get('/call-logs/', { params: { page_size: 2 } });
		expect(newest.data.data.map((l: any) => [l.call_type, l.destination_number, l.agent.name])).toEqual([
			['outbound', '+14155550166', 'Sales Assistant'],
			['inbound', '+442079460777', 'Support Bot'],
		]);
	});
});
