/**
 * The local server plays Unpod's post-call workflow per agent, as its source does: the analysis
 * plan, Enable Followup (a new scheduled task in the run, at most three calls, deduplicated) and
 * Enable Callback (a dropped call redialled). Store only: no HTTP, no n8n.
 */
import { ANALYSED_AGENT } from '../../dev/server/postCall';
import { SEED } from '../../dev/server/seed';
import { droppedCall } from '../../dev/server/callLifecycle';
import { Store } from '../../dev/server/store';
import { phoneThat } from '../helpers/calls';
import type { Task } from '../../dev/server/types';

let store: Store;
let scheduled: Task[];

/**
 * A call of the seeded agent whose outcome (read from the task id by outcomes.ts) is `outcome`;
 * `dropped`: an interested call whose line drops after the greeting (by its number).
 */
function callWith(outcome: 'interested' | 'callback' | 'not_interested' | 'dropped', documentId?: string): Task {
	const space = store.spaces.get(SEED.spaceToken)!;
	const user = store.users.get(SEED.token)!;
	const document = {
		name: 'Ann',
		contact_number: phoneThat(outcome === 'dropped', 1).number,
		deal_stage: 'demo',
		...(documentId ? { document_id: documentId } : {}),
	};
	const [task] = store.createTasks(space, SEED.agentHandle, [document], 'Say hello', user, null).tasks;
	const first = { interested: '00', callback: '01', not_interested: '02', dropped: '00' }[outcome];
	task.task_id = `T${first}${task.task_id.slice(3)}`;
	return task;
}

beforeEach(() => {
	store = new Store();
	scheduled = [];
	store.onScheduled = (task) => scheduled.push(task);
});

test('a person who opts out: the extractor sets the opt-out field and its reason, and Unpod schedules nothing', () => {
	store.agentSettings.set(SEED.agentHandle, ANALYSED_AGENT);
	const task = callWith('not_interested');
	task.outcome = 'do_not_call';
	store.finishTask(task, 'completed');
	const output = task.output as Record<string, any>;
	expect(output.transcript.at(-1).content).toBe('Please take me off your list and do not call me again.');
	expect(output.post_call_data.structured_data).toMatchObject({
		caller_requested_do_not_call: true,
		do_not_call_reason: 'Asked to be taken off the list',
	});
	expect(output.post_call_data.follow_up).toMatchObject({ required: false });
	expect(scheduled).toEqual([]);
	// Any other call: the field is there, and false.
	const other = callWith('interested');
	store.finishTask(other, 'completed');
	expect((other.output as Record<string, any>).post_call_data.structured_data).toMatchObject({
		caller_requested_do_not_call: false,
		do_not_call_reason: null,
	});
});

test('without settings an agent keeps the plain outcomes: no verdict, nothing extracted, no follow-up of its own', () => {
	const task = callWith('callback');
	store.finishTask(task, 'completed');
	const post = task.output.post_call_data as Record<string, any>;
	expect(post.structured_data).toBeNull();
	expect(post.success_evaluator).toBeUndefined();
	expect(post.follow_up).toEqual({ required: 'yes' });
	expect(scheduled).toEqual([]);
});

test("the analysis plan fills structured_data with the agent's own keys and success_evaluator with a verdict", () => {
	store.agentSettings.set(SEED.agentHandle, ANALYSED_AGENT);
	const task = callWith('interested');
	store.finishTask(task, 'completed');
	const post = task.output.post_call_data as Record<string, any>;
	expect(Object.keys(post.structured_data)).toEqual([
		'budget',
		'meeting_date',
		'decision_maker',
		'caller_requested_do_not_call',
		'do_not_call_reason',
	]);
	expect(typeof post.structured_data.budget).toBe('number');
	expect(post.structured_data.meeting_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
	expect(post.success_evaluator).toBe('true');
	expect(post.follow_up).toMatchObject({ required: false, status: null });
	expect(post.call_evaluation).toMatchObject({ quality_metrics: { overall_quality_score: 0.8 } });
	const failed = callWith('interested');
	store.finishTask(failed, 'failed');
	expect((failed.output.post_call_data as Record<string, any>).structured_data).toBeNull();
	expect((failed.output.post_call_data as Record<string, any>).success_evaluator).toBe('false');
});

test("Enable Followup: Unpod's own task in the same run, input copied, the chain in output; at most three calls in all", () => {
	store.agentSettings.set(SEED.agentHandle, { ...ANALYSED_AGENT, callback_enabled: false });
	const first = callWith('callback');
	store.finishTask(first, 'completed');
	expect(first.output.post_call_data).toMatchObject({ follow_up: { required: true, status: 'call_scheduled' } });
	expect(scheduled).toHaveLength(1);
	const second = scheduled[0];
	expect(second).toMatchObject({
		status: 'scheduled',
		run_id: first.run_id,
		input: first.input,
		output: { followup_count: 1, referenced_task: first.task_id },
		scheduled_timestamp: expect.any(Number),
	});
	expect(store.runs.get(first.run_id)!.tasks).toContain(second);

	// The follow-up reaches no one: Unpod tries once more (followup_count 2), keeping the chain on the ended task.
	store.finishTask(second, 'failed');
	expect(second.output).toMatchObject({ followup_count: 1, referenced_task: first.task_id });
	expect(scheduled).toHaveLength(2);
	expect(scheduled[1].output).toMatchObject({ followup_count: 2, referenced_task: second.task_id });

	// The third call fails too: the retry limit (max calls 3) is reached, nothing more.
	store.finishTask(scheduled[1], 'failed');
	expect(scheduled).toHaveLength(2);
	expect((scheduled[1].output.post_call_data as Record<string, any>).follow_up).toMatchObject({
		required: false,
		status: null,
		reason: expect.stringContaining('followup_count=2'),
	});
});

test('a follow-up is deduplicated among scheduled tasks of the agent by ref_id: call_already_scheduled, no new task', () => {
	store.agentSettings.set(SEED.agentHandle, ANALYSED_AGENT);
	const pending = callWith('callback', 'crm-17');
	// A call for the same document already waits (Task > Follow Up's own, say).
	const waiting = callWith('interested', 'crm-17');
	waiting.status = 'scheduled';
	store.finishTask(pending, 'completed');
	expect((pending.output.post_call_data as Record<string, any>).follow_up).toMatchObject({
		required: true,
		status: 'call_already_scheduled',
	});
	expect(scheduled).toEqual([]);
});

test('Enable Callback: a dropped call is rescheduled two minutes later, the redial counted in its input, at most twice', () => {
	store.agentSettings.set(SEED.agentHandle, { ...ANALYSED_AGENT, follow_up_enabled: false });
	const task = callWith('dropped');
	const ended: string[] = [];
	store.onChange = (t, change) => change === 'ended' && ended.push(t.status);
	store.finishTask(task, 'completed', Date.parse('2026-11-25T10:00:00Z'));
	// The push saw it completed; then Unpod scheduled it again.
	expect(ended).toEqual(['completed']);
	expect(task.output).toMatchObject({
		call_status: 'droped',
		post_call_data: {
			redial: 'call_scheduled_for_redial',
			is_redial: true,
			follow_up: { required: 'follow_up disabled' },
		},
	});
	expect(task.status).toBe('scheduled');
	expect(task.input.redial_count).toBe(1);
	expect(task.scheduled_timestamp).toBe(Date.parse('2026-11-25T10:02:00Z') / 1000);
	expect(scheduled).toEqual([task]);

	// Dropped again after its second redial: no third redial.
	task.input.redial_count = 2;
	task.input.contact_number = phoneThat(true, 1, { redial_count: 2 }).number;
	expect(droppedCall(task)).toBe(true);
	store.finishTask(task, 'completed');
	expect(task.output).toMatchObject({ call_status: 'droped', post_call_data: { redial: 'unable to instant redial' } });
	expect(task.status).toBe('completed');

	// Callback off: the same drop is left alone, and says so.
	store.agentSettings.set(SEED.agentHandle, { ...ANALYSED_AGENT, follow_up_enabled: false, callback_enabled: false });
	const other = callWith('dropped');
	store.finishTask(other, 'completed');
	expect(other.output.post_call_data).toMatchObject({ redial: 'instant redial not enabled' });
	expect(other.status).toBe('completed');
});
