/**
 * Unpod's agent webhooks, as its backend sends them (`apps/super`: `WebhookHandler.execute`
 * and `send_web_notification`): per agent, a form `webhook-integration` with
 * `enable_webhook`, `webhook_url` and `headers`; delivery A (the whole task document, no
 * `event` key) when a task ends, failed too; delivery B (`{event, status, data}`) when a call
 * starts, hangs up or is missed. No signature: the custom headers are the only proof. Up to 3
 * immediate attempts, and only while the answer's status is not exactly 200; an exception
 * (no connection, a 200 whose body is not JSON) ends them.
 */
import { callTime } from './ids';
import type { Store } from './store';
import type { CallLog, Task, TaskChange } from './types';

/** The agent's `webhook-integration` form values. */
export interface WebhookForm {
	enable_webhook: boolean;
	webhook_url: string;
	/** A dict, or a list of `{header_name, header_value}`, as the form stores either. */
	headers: Record<string, string> | Array<{ header_name: string; header_value: string }>;
}

/** What the twin does to deliveries, beyond Unpod's own rules. */
export interface DeliveryFaults {
	/** Share of deliveries never sent (0..1): a worker that died, a Kafka message lost. */
	dropRate: number;
	/** Share of delivered task ends sent once more (0..1), as a second code path would. */
	repeatRate: number;
}

export interface DeliveryRecord {
	id: number;
	kind: 'task' | 'event';
	/** `task_ended` for delivery A, the event name for delivery B. */
	event: string;
	task_id: string;
	agent: string;
	url: string;
	/** Status of each attempt; 0 where the attempt raised (no connection, a non-JSON 200). */
	attempts: number[];
	state: 'sending' | 'delivered' | 'failed' | 'dropped';
	/** A second send of a delivery already made. */
	repeat: boolean;
	at: number;
	doneAt?: number;
	body: Record<string, unknown>;
	headers: Record<string, string>;
}

const MAX_ATTEMPTS = 3;

export class AgentWebhooks {
	/** Form values by agent handle. */
	readonly forms = new Map<string, WebhookForm>();
	readonly deliveries: DeliveryRecord[] = [];
	faults: DeliveryFaults = { dropRate: 0, repeatRate: 0 };
	private nextId = 1;
	private inFlight = new Set<Promise<void>>();
	/** Each delivery's attempts while they go on, by record id. */
	private attempts = new Map<number, Promise<void>>();

	constructor(
		private store: Store,
		private random: () => number = Math.random,
	) {}

	configure(agent: string, form: WebhookForm): void {
		this.forms.set(agent, form);
	}

	/** The form as Unpod's pilot endpoint answers it (`components.Integration[].form_values.values`). */
	formView(agent: string): Record<string, unknown> {
		const form = this.forms.get(agent);
		const values = form
			? {
					'webhook-integration__enable_webhook': form.enable_webhook,
					'webhook-integration__webhook_url': form.webhook_url,
					'webhook-integration__headers': form.headers,
				}
			: {};
		return { Integration: [{ slug: 'webhook-integration', name: 'Webhook', form_values: { values } }] };
	}

	/** The store calls this on every lifecycle step of a task. */
	onTaskChange(task: Task, change: TaskChange): void {
		if (change === 'started') this.send(task, 'event', 'call_started', this.liveEvent(task, 'call_started'));
		else if (change === 'attemptFailed') this.send(task, 'event', 'call_missed', this.liveEvent(task, 'call_missed'));
		else {
			const event = task.status === 'failed' ? 'call_missed' : 'call_hang_up';
			this.send(task, 'event', event, this.liveEvent(task, event));
			// The newer call path pushes the whole task only when it completed.
			if (this.store.lifecycle() === 'newer' && task.status !== 'completed') return;
			this.send(task, 'task', 'task_ended', this.taskDocument(task));
		}
	}

	/** Sends a task's end again, as another of Unpod's code paths would. */
	redeliver(taskId: string): DeliveryRecord | undefined {
		const task = this.store.tasksById.get(taskId);
		if (!task) return undefined;
		return this.send(task, 'task', 'task_ended', this.taskDocument(task), true);
	}

	/** Resolves when every delivery started so far has finished its attempts. */
	async settled(): Promise<void> {
		while (this.inFlight.size) await Promise.all([...this.inFlight]);
	}

	clear(): void {
		this.deliveries.length = 0;
		this.faults = { dropRate: 0, repeatRate: 0 };
	}

	/** The task document of delivery A: the stored task with Python's `str()` of its datetimes. */
	taskDocument(task: Task): Record<string, unknown> {
		return {
			task_id: task.task_id,
			run_id: task.run_id,
			thread_id: task.thread_id,
			collection_ref: `collection_data_${task.space}`,
			space_id: task.space,
			assignee: task.assignee,
			status: task.status,
			execution_type: task.execution_type,
			task: task.task,
			input: task.input,
			output: task.output,
			attachments: task.attachments,
			ref_id: task.ref_id,
			retry_attempt: task.retry_attempt,
			failure_count: task.failure_count,
			last_failure_reason: task.last_failure_reason,
			provider: 'vapi',
			scheduled_timestamp: task.scheduled_timestamp,
			execution_units: 0,
			owner_org_id: task.org,
			user_org_id: task.org,
			user_id: task.user_info.email,
			user: task.user_info.email,
			user_info: task.user_info,
			created: callTime(Math.floor(task.createdUs / 1000)),
			modified: callTime(Math.floor(task.modifiedUs / 1000)),
		};
	}

	/** Delivery B's body; `str(None)` for a time not set yet, as Python prints it. */
	liveEvent(task: Task, event: string): Record<string, unknown> {
		const output = task.output;
		const ended = event !== 'call_started';
		return {
			event,
			status: 'completed',
			data: {
				call_id: task.thread_id,
				task_id: task.task_id,
				contact_number: task.input.contact_number ?? null,
				contact_name: task.input.name ?? null,
				config: { agent_id: task.assignee, space_token: task.space },
				transcript: ended && Array.isArray(output.transcript) ? output.transcript : [],
				room: `room-${task.thread_id}`,
				usage: ended ? { duration: output.duration ?? 0 } : {},
				start_time: task.startedMs ? callTime(task.startedMs) : 'None',
				end_time: ended ? callTime(Math.floor(task.modifiedUs / 1000)) : 'None',
				call_type: 'outbound',
			},
		};
	}

	/**
	 * The live events of an inbound call, as Unpod's voice handler sends them: no task_id and
	 * no call_id (it does not keep the task it opens), the room naming the call. The end is sent
	 * once the start was answered: a real call lies between them, so they never race.
	 */
	onInboundCall(log: CallLog): void {
		if (!log.agent) return;
		const owner = { assignee: log.agent, task_id: '' };
		const event = (name: string) => ({
			event: name,
			status: 'completed',
			data: {
				call_id: '',
				task_id: '',
				contact_number: log.destination_number,
				contact_name: `sip_${log.destination_number}`,
				config: { agent_id: log.agent },
				transcript: [],
				room: `room-inbound-${log.id}`,
				usage: {},
				start_time: callTime(log.startMs),
				end_time: name === 'call_hang_up' ? callTime(log.endMs) : 'None',
				call_type: 'inbound',
			},
		});
		const started = this.send(owner, 'event', 'call_started', event('call_started'));
		this.track(
			((started && this.attempts.get(started.id)) || Promise.resolve()).then(() => {
				this.send(owner, 'event', 'call_hang_up', event('call_hang_up'));
			}),
		);
	}

	private track(work: Promise<void>): void {
		this.inFlight.add(work);
		void work.finally(() => this.inFlight.delete(work));
	}

	private headersOf(form: WebhookForm): Record<string, string> {
		const headers: Record<string, string> = { 'Content-Type': 'application/json' };
		if (Array.isArray(form.headers)) for (const h of form.headers) headers[h.header_name] = h.header_value;
		else Object.assign(headers, form.headers);
		return headers;
	}

	private send(
		task: Pick<Task, 'assignee' | 'task_id'>,
		kind: DeliveryRecord['kind'],
		event: string,
		body: Record<string, unknown>,
		repeat = false,
	): DeliveryRecord | undefined {
		const form = this.forms.get(task.assignee);
		if (!form?.enable_webhook || !form.webhook_url) return undefined;
		const record: DeliveryRecord = {
			id: this.nextId++,
			kind,
			event,
			task_id: task.task_id,
			agent: task.assignee,
			url: form.webhook_url,
			attempts: [],
			state: 'sending',
			repeat,
			at: Date.now(),
			body,
			headers: this.headersOf(form),
		};
		this.deliveries.push(record);
		if (!repeat && this.random() < this.faults.dropRate) {
			record.state = 'dropped';
			record.doneAt = record.at;
			return record;
		}
		const attempt = this.attempt(record).then(() => {
			if (kind === 'task' && !repeat && record.state === 'delivered' && this.random() < this.faults.repeatRate) {
				this.send(task, kind, event, body, true);
			}
		});
		this.attempts.set(record.id, attempt);
		void attempt.finally(() => this.attempts.delete(record.id));
		this.track(attempt);
		return record;
	}

	/** Unpod's loop: up to 3 posts while the status is not 200; any exception ends it. */
	private async attempt(record: DeliveryRecord): Promise<void> {
		for (let i = 0; i < MAX_ATTEMPTS; i++) {
			try {
				const res = await fetch(record.url, {
					method: 'POST',
					headers: record.headers,
					body: JSON.stringify(record.body),
				});
				const text = await res.text();
				record.attempts.push(res.status);
				if (res.status === 200) {
					// Unpod reads the answer with `res.json()`: a body that is not JSON raises.
					JSON.parse(text);
					record.state = 'delivered';
					record.doneAt = Date.now();
					return;
				}
			} catch {
				if (record.attempts.length === i) record.attempts.push(0);
				record.state = 'failed';
				record.doneAt = Date.now();
				return;
			}
		}
		record.state = 'failed';
		record.doneAt = Date.now();
	}
}
