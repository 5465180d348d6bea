/** The Unpod Call Events Trigger's pure parts: reading a delivery, the repeat window, the secret. */
import {
	deliveryItem,
	parseBody,
	readDelivery,
	simplifyLiveEvent,
} from '../../../nodes/UnpodCallEventsTrigger/deliveries';
import { secretMatches, secretProblem } from '../../../nodes/UnpodCallEventsTrigger/origin';
import { checkRepeat, DeliveryLog } from '../../../nodes/UnpodCallEventsTrigger/repeats';
import type { IDataObject } from 'n8n-workflow';
import { simplifyTask } from '../../../nodes/shared/outcome';
import { AgentWebhooks } from '../../../dev/server/webhooks';
import { spaceForm } from '../../../dev/server/answers';
import { Store } from '../../../dev/server/store';

const TASK = 'T0123456789abcdef0123456789abcdef';

/** A delivery A and a delivery B as the local server builds them from one ended call. */
function unpodDeliveries() {
	const store = new Store();
	const webhooks = new AgentWebhooks(store);
	const space = [...store.spaces.values()][0];
	const user = [...store.users.values()][0];
	const [task] = store.createTasks(
		space,
		'sales-assistant',
		[{ name: 'Ann Lee', contact_number: '+14155550100' }],
		'hi',
		user,
		null,
	).tasks;
	store.startTask(task);
	store.finishTask(task, 'completed');
	return {
		task,
		store,
		ended: webhooks.taskDocument(task) as IDataObject,
		hangUp: webhooks.liveEvent(task, 'call_hang_up') as IDataObject,
	};
}

describe('readDelivery', () => {
	test('delivery A of a final task is an ending, keyed by task and status', () => {
		for (const status of ['completed', 'failed', 'partially_completed']) {
			expect(readDelivery({ task_id: TASK, status, output: {} })).toMatchObject({
				kind: 'ended',
				selector: status,
				event: `call_${status}`,
				taskId: TASK,
				key: `${TASK}:${status}`,
			});
		}
	});

	test('the ending of a redial Unpod made (the same task again, redial_count raised) is a new ending, not a repeat', () => {
		const first = readDelivery({ task_id: TASK, status: 'completed', input: { name: 'Ann' } });
		const redialled = readDelivery({ task_id: TASK, status: 'completed', input: { name: 'Ann', redial_count: 1 } });
		expect(first).toMatchObject({ key: `${TASK}:completed` });
		expect(redialled).toMatchObject({ kind: 'ended', key: `${TASK}:completed:redial1` });
	});

	test('delivery A of an open task (an attempt, a cron update) is not an ending', () => {
		for (const status of ['pending', 'in_progress', 'scheduled', 'hold', 'processing', '']) {
			expect(readDelivery({ task_id: TASK, status })).toEqual({ kind: 'open', taskId: TASK, status });
		}
	});

	test('delivery B is a live event keyed by task, event and the attempt time', () => {
		const body = {
			event: 'call_missed',
			status: 'completed',
			data: { task_id: TASK, start_time: '2026-11-23 10:00:00.5' },
		};
		expect(readDelivery(body)).toMatchObject({
			kind: 'live',
			selector: 'call_missed',
			key: `${TASK}:call_missed:2026-11-23 10:00:00.5`,
		});
		// Python's str(None) is no time: the end time keys the event then.
		const noStart = {
			event: 'call_missed',
			data: { task_id: TASK, start_time: 'None', end_time: '2026-11-23 10:01:00' },
		};
		expect(readDelivery(noStart)).toMatchObject({ key: `${TASK}:call_missed:2026-11-23 10:01:00` });
	});

	test("an inbound call's events, which carry no task_id, are named by their room", () => {
		const hangUp = {
			event: 'call_hang_up',
			status: 'completed',
			data: { task_id: '', call_id: '', room: 'room-in-42', call_type: 'inbound', start_time: '2026-11-23 10:00:00' },
		};
		expect(readDelivery(hangUp)).toMatchObject({
			kind: 'live',
			event: 'call_hang_up',
			taskId: '',
			key: 'room-in-42:call_hang_up:2026-11-23 10:00:00',
		});
	});

	test('bodies that are not Unpod deliveries are refused with a reason', () => {
		expect(readDelivery([1, 2])).toEqual({ kind: 'invalid', reason: 'The body is not a JSON object' });
		expect(readDelivery({ hello: 'world' })).toMatchObject({
			kind: 'invalid',
			reason: expect.stringMatching(/no task_id/),
		});
		expect(readDelivery({ event: 'call_started', data: {} })).toMatchObject({
			kind: 'invalid',
			reason: expect.stringMatching(/no task_id, call_id or room/),
		});
		expect(readDelivery({ event: '', data: { task_id: TASK } })).toMatchObject({ kind: 'invalid' });
	});
});

describe('parseBody', () => {
	test('reads the exact bytes as JSON, refuses what is not JSON, empty or too large', () => {
		expect(parseBody(Buffer.from('{"task_id":"T1"}'), {})).toEqual({ body: { task_id: 'T1' } });
		expect(parseBody(Buffer.from('task_id=T1'), 'task_id=T1')).toEqual({ reason: 'The body is not JSON' });
		expect(parseBody(Buffer.alloc(0), {})).toEqual({ reason: 'The body is empty' });
		expect(parseBody(Buffer.alloc(5 * 1024 * 1024 + 1, 32), {})).toEqual({
			reason: 'The body is larger than 5 MB',
		});
		// Without the raw bytes, what n8n parsed.
		expect(parseBody(undefined, { task_id: 'T2' })).toEqual({ body: { task_id: 'T2' } });
		// Text n8n parsed from a body that is not JSON is handed on, and refused as not an object.
		expect(parseBody(undefined, 'task_id=T1')).toEqual({ body: 'task_id=T1' });
		expect(readDelivery('task_id=T1')).toEqual({ kind: 'invalid', reason: 'The body is not a JSON object' });
		expect(parseBody(undefined, '')).toEqual({ reason: 'The body is empty' });
	});
});

describe('items', () => {
	test('an ending comes out as the polling trigger simplifies the task, plus event', () => {
		const { ended, store, task } = unpodDeliveries();
		const delivery = readDelivery(ended);
		if (delivery.kind !== 'ended') throw new Error('not an ending');
		const item = deliveryItem(delivery, true);
		// The same fields and values as the task read from the space's list.
		expect(item).toEqual({ event: 'call_completed', ...simplifyTask(spaceForm(task) as IDataObject) });
		expect(item).toMatchObject({ task_id: task.task_id, contact_name: 'Ann Lee', status: 'completed' });
		expect(item.transcript).toMatch(/^Assistant: /);
		expect(deliveryItem(delivery, false)).toEqual({ event: 'call_completed', ...ended });
	});

	test('a live event comes out flat, times in ISO UTC, the transcript as lines', () => {
		const { hangUp, task } = unpodDeliveries();
		const item = simplifyLiveEvent(hangUp);
		expect(Object.keys(item)).toEqual([
			'event',
			'status',
			'task_id',
			'call_id',
			'contact_number',
			'contact_name',
			'call_type',
			'room',
			'start_time',
			'end_time',
			'transcript',
		]);
		expect(item).toMatchObject({
			event: 'call_hang_up',
			task_id: task.task_id,
			call_id: task.thread_id,
			contact_number: '+14155550100',
			contact_name: 'Ann Lee',
			call_type: 'outbound',
			room: `room-${task.thread_id}`,
			start_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
			end_time: expect.stringMatching(/Z$/),
		});
		expect(item.transcript).toMatch(/^Assistant: /);
		// A handover's summary, merged into the top level, is kept.
		const handover = simplifyLiveEvent({ ...hangUp, event: 'handover_initiated', summary: 'wants a human' });
		expect(handover).toMatchObject({ event: 'handover_initiated', summary: 'wants a human' });
		expect(simplifyLiveEvent({ event: 'call_started', data: { task_id: TASK, start_time: 'None' } })).toMatchObject({
			start_time: null,
			end_time: null,
			transcript: '',
		});
	});
});

describe('checkRepeat', () => {
	const window = { ms: 60_000, max: 3 };

	test('lets a key through once within the window, and again after it', () => {
		const first = checkRepeat(undefined, 'a', 1_000_000, window);
		expect(first).toEqual({ repeat: false, log: { v: 1, seen: { a: 1000 } } });
		const log = (first as { log: DeliveryLog }).log;
		expect(checkRepeat(log, 'a', 1_030_000, window)).toEqual({ repeat: true });
		expect(checkRepeat(log, 'a', 1_060_000, window)).toMatchObject({ repeat: false });
	});

	test('keeps at most max keys, the newest, and drops expired ones', () => {
		let log: unknown;
		for (const [key, at] of [
			['a', 0],
			['b', 10_000],
			['c', 20_000],
			['d', 30_000],
		] as const) {
			const result = checkRepeat(log, key, at, window);
			if (result.repeat) throw new Error(`${key} seen as a repeat`);
			log = result.log;
		}
		expect(Object.keys((log as DeliveryLog).seen)).toEqual(['b', 'c', 'd']);
		const later = checkRepeat(log, 'e', 75_000, window);
		expect(later).toEqual({ repeat: false, log: { v: 1, seen: { c: 20, d: 30, e: 75 } } });
	});

	test('an unreadable stored log starts empty', () => {
		expect(checkRepeat({ v: 9, x: 1 }, 'a', 0, window)).toEqual({ repeat: false, log: { v: 1, seen: { a: 0 } } });
		expect(checkRepeat('garbage', 'a', 0, window)).toMatchObject({ repeat: false });
	});

	test('the default window holds 1,000 deliveries in under 60 kB', () => {
		let log: unknown;
		for (let i = 0; i < 1500; i++) {
			const result = checkRepeat(log, `T${String(i).padStart(32, '0')}:completed`, 1_800_000_000_000 + i * 1000);
			if (!result.repeat) log = result.log;
		}
		expect(Object.keys((log as DeliveryLog).seen)).toHaveLength(1000);
		expect(JSON.stringify(log).length).toBeLessThan(60_000);
	});
});

describe('origin', () => {
	test('the header must carry exactly the secret', () => {
		const secret = 'a-long-random-secret-value';
		expect(secretMatches(secret, secret)).toBe(true);
		expect(secretMatches([secret], secret)).toBe(true);
		expect(secretMatches(`${secret} `, secret)).toBe(false);
		expect(secretMatches(secret.slice(0, -1), secret)).toBe(false);
		expect(secretMatches(undefined, secret)).toBe(false);
		expect(secretMatches('', '')).toBe(false);
	});

	test('a credential without a usable secret or header name is named as such', () => {
		expect(secretProblem('X-Unpod-Secret', '')).toMatch(/no Webhook Secret/);
		expect(secretProblem('X-Unpod-Secret', 'short')).toMatch(/shorter than 16/);
		expect(secretProblem('X Unpod', 'a-long-random-secret-value')).toMatch(/not a valid HTTP header name/);
		expect(secretProblem('X-Unpod-Secret', 'a-long-random-secret-value')).toBeUndefined();
	});
});
