/**
 * What a Follow Up item says: the decision, the next call it placed or found, and for a contact
 * who opted out, what Unpod itself still calls.
 */
import type { IDataObject } from 'n8n-workflow';
import { nextCallTime } from './followUp.lookup';
import type { Planned } from './followUp.lookup';
import { CONSENT_REVOKED } from './followUp.plan';

/** What one input item comes out as: the decision, and the follow-up task when one was scheduled. */
export function decided(plan: Planned, extra: IDataObject): IDataObject {
	const at = plan.slot ?? plan.decision.at;
	return {
		task_id: plan.call.taskId,
		contact_name: plan.call.document.name ?? null,
		contact_number: plan.call.document.contact_number ?? null,
		attempt: plan.call.attempt,
		follow_up: plan.decision.follow_up,
		follow_up_reason: plan.decision.reason,
		follow_up_at: at === undefined ? null : new Date(at).toISOString(),
		follow_up_attempt: plan.decision.follow_up === 'none' ? null : plan.decision.attempt,
		do_not_call: plan.decision.reason === 'do_not_call',
		...(plan.decision.moved ? { unpod_rescheduled: plan.decision.moved } : {}),
		...(plan.decision.outsideHours ? { unpod_outside_hours: plan.decision.outsideHours } : {}),
		...extra,
	};
}

/**
 * A do-not-call item, or one whose consent was withdrawn: the flag, why, and the next call Unpod
 * itself scheduled for the contact all the same, if any (Unpod has no cancel for a task:
 * docs/task.md says what to do about it).
 */
export function optedOut(plan: Planned, found: IDataObject | undefined): IDataObject {
	const next = found?.task_id ? found : undefined;
	const revoked = plan.decision.reason === CONSENT_REVOKED;
	const item: IDataObject = {
		...(revoked ? { consent_revoked: true } : { do_not_call: true, do_not_call_reason: plan.call.doNotCall ?? null }),
		unpod_next_call_task_id: next?.task_id ?? null,
		unpod_next_call_at: (next && nextCallTime(next)) ?? plan.call.unpodAt ?? null,
	};
	if (next || plan.decision.unpodCallsAgain) {
		item.unpod_warning =
			`Unpod itself calls this contact again${next ? ` (task ${String(next.task_id)})` : ''}` +
			`${item.unpod_next_call_at ? ` at ${String(item.unpod_next_call_at)}` : ''}, and Unpod cannot cancel a task: ` +
			`see the package's docs (Follow Up, ${revoked ? 'consent' : 'do-not-call'}) for what to do`;
	}
	return item;
}

/** The next call as an item names it: its task and run. */
export const taskRef = (task: IDataObject | undefined): IDataObject => ({
	follow_up_task_id: task?.task_id ?? null,
	follow_up_run_id: task?.run_id ?? null,
});
