/**
 * A calling campaign run to its end by Task > Follow Up: 1,000 contacts, 40% not reached and 10%
 * asking for a callback on each call, in n8n's engine against the local server, on a faked
 * date (both run in this process) that jumps from slot to slot: days of calling in seconds.
 * With Unpod's follow-ups on, the agent's Enable Followup and Enable Callback play as Unpod's
 * source does (the server's own outcomes: a third ask for a callback, one in six drops) and
 * Follow Up leaves those calls to Unpod.
 */
import type { IDataObject } from 'n8n-workflow';
import { outputOf } from '../../dev/harness/run-results';
import { chain, rowsNode } from '../../dev/harness/workflow-builders';
import { agentRef, spaceRef, unpodNode } from '../helpers/nodes';
import { startHarness } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';
import type { Task } from '../../dev/server/types';
import { ANALYSED_AGENT } from '../../dev/server/postCall';
import type { AgentSettings } from '../../dev/server/types';
import { callChain, simplifyTask } from '../../nodes/shared/outcome';
import { ZoneClock } from '../../nodes/shared/callingHours/window';
import { table } from '../../dev/harness/report';

const CONTACTS = 1_000;
const ZONE = 'Europe/Berlin';
/** Wednesday 2026-11-25, 11:00 in Berlin. */
const START = Date.parse('2026-11-25T10:00:00Z');

/**
 * The date of this process, moved on by jumps (the local server and the nodes both read it);
 * time still passes between jumps. Timers are left alone: requests and retries run as they do.
 */
function jumpingDate(start: number) {
	const RealDate = Date;
	let offset = start - RealDate.now();
	class JumpingDate extends RealDate {
		constructor(...args: unknown[]) {
			if (args.length) super(...(args as [number]));
			else super(RealDate.now() + offset);
		}
		static now() {
			return RealDate.now() + offset;
		}
	}
	globalThis.Date = JumpingDate as DateConstructor;
	return {
		setSystemTime: (ms: number) => (offset = ms - RealDate.now()),
		uninstall: () => (globalThis.Date = RealDate),
	};
}

/** Deterministic draws, so two runs of the bench are the same campaign. */
function draws(seed: number) {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
		return state / 2 ** 31;
	};
}

const clock = new ZoneClock();
const inWindow = (ms: number) => {
	const p = clock.parts(ms, ZONE);
	const minute = p.hour * 60 + p.minute;
	return p.weekday >= 1 && p.weekday <= 5 && minute >= 9 * 60 && minute < 19 * 60;
};

/** When a scheduled task is due: the package's ISO schedule (UTC) or Unpod's unix seconds. */
const dueAt = (task: Task) =>
	typeof task.scheduled_timestamp === 'number'
		? task.scheduled_timestamp * 1000
		: Date.parse(`${task.scheduled_timestamp}Z`);

/** Unpod's agent settings of the campaign, and how the report names them; none: plain outcomes. */
export interface UnpodSide {
	settings: AgentSettings;
	label: string;
}

/** The agent as Unpod ships it (Enable Followup on, Enable Callback off), and with Enable Callback too. */
export const UNPOD_SIDES: UnpodSide[] = [
	{ settings: { ...ANALYSED_AGENT, callback_enabled: false }, label: "Unpod's Enable Followup on (its default)" },
	{ settings: ANALYSED_AGENT, label: "Unpod's Enable Followup and Enable Callback on" },
];

export async function benchCampaign(unpod?: UnpodSide): Promise<void> {
	const who = unpod ? ` with ${unpod.label}` : '';
	console.log(`\n## A campaign of ${CONTACTS.toLocaleString('en-US')} contacts run to its end by Follow Up${who}\n`);
	const clock = jumpingDate(START);
	const h = await startHarness();
	if (unpod) h.server.store.agentSettings.set(SEED.secondAgentHandle, unpod.settings);
	try {
		const draw = draws(7);
		const space = SEED.secondSpaceToken;
		const contacts = Array.from({ length: CONTACTS }, (_, i) => ({
			name: `Campaign ${i + 1}`,
			contact_number: `+4930700${String(i).padStart(5, '0')}`,
		}));
		/** Ends a call as the campaign's odds say: not reached, a callback asked for, or reached. */
		const end = (task: Task) => {
			const roll = draw();
			h.server.store.finishTask(task, roll < 0.4 ? 'failed' : 'completed');
			if (unpod) return;
			// The local server's own outcomes ask for callbacks now and then: here the odds decide.
			const post = (task.output.post_call_data ?? {}) as IDataObject;
			if (post.profile_summary) (post.profile_summary as IDataObject).callback_requested = false;
			if (roll >= 0.4 && roll < 0.5) {
				const asked = new Date(Date.now() + 26 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
				const profile = ((task.output.post_call_data ??= {}) as IDataObject).profile_summary as IDataObject | undefined;
				(task.output.post_call_data as IDataObject).profile_summary = {
					...(profile ?? {}),
					callback_requested: true,
					callback_time: asked,
				};
			}
		};
		// Each ending as Unpod pushed it: a redial schedules the same task again right after.
		const pushed = new Map<string, IDataObject>();
		const notify = h.server.store.onChange;
		h.server.store.onChange = (task, change) => {
			if (change === 'ended') pushed.set(task.task_id, h.server.webhooks.taskDocument(task) as IDataObject);
			notify?.(task, change);
		};
		let ended = h.server.calls.addTasks(contacts, { space, pilot: SEED.secondAgentHandle, context: 'Campaign' });
		ended.forEach(end);
		const node = unpodNode('task', 'Follow Up', {
			operation: 'followUp',
			space: spaceRef(space),
			agent: agentRef(SEED.secondAgentHandle),
			callContext: 'Campaign follow-up',
			options: { timeZone: ZONE, maxCalls: 3, callingDays: [1, 2, 3, 4, 5], callingFrom: '09:00', callingTo: '19:00' },
		});
		const slots = new Map<number, number>();
		let round = 0;
		let outside = 0;
		let creates = 0;
		let requests = 0;
		let followUps = 0;
		let unpods = 0;
		const decided = new Map<string, string>();
		while (ended.length && round < 10) {
			round++;
			const id = `campaignRound${round}`;
			await h.n8n.importWorkflows([
				chain(id, [
					rowsNode(
						'Ended',
						ended.map((t) => simplifyTask(pushed.get(t.task_id)!)),
					),
					node,
				]),
			]);
			h.server.resetTraffic();
			const run = await h.run(id);
			if (run.exitCode !== 0) throw new Error(`Round ${round} failed: ${run.resultData?.error?.message}`);
			creates += h.server.requestsTo('POST', `/spaces/${space}/tasks/`).length;
			requests += h.server.requests.length;
			const out = outputOf(run, 'Follow Up');
			const next: Task[] = [];
			for (const o of out) {
				decided.set(String(o.contact_number), `${o.follow_up}: ${o.follow_up_reason}`);
				if (o.follow_up === 'none') continue;
				next.push(h.server.store.tasksById.get(String(o.follow_up_task_id))!);
				// Unpod's own follow-up or redial: its time, not this node's slot.
				if (o.follow_up === 'unpod') {
					unpods++;
					continue;
				}
				const at = Date.parse(String(o.follow_up_at));
				slots.set(at, (slots.get(at) ?? 0) + 1);
				if (!inWindow(at)) outside++;
				followUps++;
			}
			// The date jumps to each slot in turn, and the calls due then are made.
			for (const at of [...new Set(next.map(dueAt))].sort((a, b) => a - b)) {
				clock.setSystemTime(Math.max(at, Date.now()) + 5 * 60_000);
				next.filter((t) => dueAt(t) === at).forEach(end);
			}
			ended = next;
		}
		const tasks = h.server.store.tasks.filter((t) => String(t.input.name ?? '').startsWith('Campaign '));

		const perContact = new Map<string, number>();
		// Next calls per ending: follow-ups naming the same call (Unpod's or the package's), and
		// the package's follow-ups of a call that Unpod redialled after them.
		const nextOf = new Map<string, number>();
		for (const t of tasks) {
			const number = String(t.input.contact_number);
			// A contact's calls: the place of its last call in its chain (redials and Unpod's follow-ups counted).
			const chain = callChain(h.server.webhooks.taskDocument(t) as IDataObject);
			perContact.set(number, Math.max(perContact.get(number) ?? 0, chain.attempt));
			if (chain.previous_task_id) nextOf.set(chain.previous_task_id, (nextOf.get(chain.previous_task_id) ?? 0) + 1);
		}
		const beforeRedial = tasks.filter((t) => {
			const previous = t.output.referenced_task
				? undefined
				: h.server.store.tasksById.get(String(t.input.previous_task_id));
			return previous && t.createdUs < previous.lastStatusChangeUs;
		}).length;
		const outcomes = new Map<string, number>();
		for (const why of decided.values()) outcomes.set(why, (outcomes.get(why) ?? 0) + 1);
		const counts = [...perContact.values()];
		const calls = counts.reduce((sum, n) => sum + n, 0);
		table([
			{ measure: 'contacts', value: CONTACTS },
			{ measure: 'contacts finished (no follow-up left)', value: decided.size },
			...[...outcomes.entries()].sort().map(([why, n]) => ({ measure: `  ${why}`, value: n })),
			{ measure: 'calls in all', value: calls },
			{ measure: 'calls per contact: mean', value: (calls / CONTACTS).toFixed(2) },
			{ measure: 'calls per contact: most', value: Math.max(...counts) },
			{ measure: 'contacts called more than Max Calls (3)', value: counts.filter((n) => n > 3).length },
			{ measure: 'follow-ups scheduled by Follow Up', value: followUps },
			...(unpod
				? [
						{ measure: 'next calls left to Unpod (its follow-ups, its redials)', value: unpods },
						{ measure: "Unpod's follow-up tasks", value: tasks.filter((t) => t.output.referenced_task).length },
						{ measure: "Unpod's redials", value: calls - tasks.length },
					]
				: []),
			{ measure: 'slots used', value: slots.size },
			{ measure: 'create requests', value: creates },
			{
				measure: 'the floor: one per slot per 100 follow-ups',
				value: [...slots.values()].reduce((sum, n) => sum + Math.ceil(n / 100), 0),
			},
			{ measure: 'calls outside the window', value: outside },
			{
				measure: 'endings called back twice (two next calls, or one before a redial)',
				value: [...nextOf.values()].filter((n) => n > 1).length + beforeRedial,
			},
			{ measure: 'requests to Unpod during the Follow Up runs', value: requests },
			{ measure: 'rounds of Follow Up', value: round },
			{ measure: 'days of calling', value: ((Date.now() - START) / 86_400_000).toFixed(1) },
		]);
	} finally {
		await h.close();
		clock.uninstall();
	}
}
