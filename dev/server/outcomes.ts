/** The call-outcome generator: realistic `output` objects for calls that ended or an attempt that failed. */
import { callTime, hex } from './ids';
import { recordingUrl } from './recordings';
import type { Task } from './types';

/** A call the person picked up and that dropped at once: Unpod's summary says `Dropped` (its redial's cue). */
const DROPPED = { interest: 'low', outcome: 'Dropped', next: 'Call again', labels: ['dropped'] };

/** A person who asks to be taken off the list: the agent's extractor, where set up, says so (postCall.ts). */
const OPTED_OUT = { interest: 'low', outcome: 'do_not_call', next: 'Do not call again', labels: ['do-not-call'] };

const OUTCOMES = [
	{ interest: 'high', outcome: 'interested', next: 'Send pricing and book a demo', labels: ['hot-lead'] },
	{ interest: 'medium', outcome: 'callback', next: 'Call back next week', labels: ['callback'] },
	{ interest: 'low', outcome: 'not_interested', next: 'Close the lead', labels: ['not-interested'] },
];

/**
 * What the agent says first, as an LLM agent follows its context: the words it is told to say
 * first, word for word (the package's opening, `say these words ...: "..."`), then its greeting;
 * without such words, or where a script makes it forget them, its greeting alone.
 */
function greeting(task: Task, name: string): string {
	const told = /say these words[^:"]*:\s*"([^"]+)"/.exec(task.task?.objective ?? '')?.[1];
	const own = 'I am calling about your enquiry.';
	return told && !task.skipsOpening ? `${told} ${own}` : `Hello ${name}, this is Acme calling about your enquiry.`;
}

/**
 * When a call that ended at `endMs` began: its nominal length back from the end, but never
 * before the task existed nor before the call was put through (`in_progress`).
 */
function callWindow(task: Task, endMs: number, nominalSeconds: number): { startMs: number; duration: number } {
	const earliest = Math.max(Math.ceil(task.createdUs / 1000), task.startedMs ?? 0);
	const startMs = Math.max(earliest, endMs - nominalSeconds * 1000);
	return { startMs, duration: Math.max(1, Math.round((endMs - startMs) / 1000)) };
}

/** The post-call analysis of an approval call: the decision in each place an agent's analysis may put it. */
function approvalAnalysis(task: Task): Record<string, unknown> {
	const answer = task.answer!;
	const name = String(task.input.name ?? 'the approver');
	const said = { approved: 'Yes, go ahead.', declined: 'No, do not do that.', unclear: 'Hmm, I am not sure.' }[answer];
	return {
		classification: { labels: [answer] },
		summary: {
			status: answer,
			summary: `${name} ${answer === 'unclear' ? 'gave no clear answer' : answer}: "${said}"`,
		},
		follow_up: { required: 'no' },
		profile_summary: { outcome: answer, next_action: answer === 'approved' ? 'Proceed' : 'Do not proceed' },
		structured_data: {
			decision: answer,
			approved: answer === 'approved' ? true : answer === 'declined' ? false : null,
		},
	};
}

export function completedOutput(
	task: Task,
	endMs: number,
	recordingBase: string,
	dropped = false,
): Record<string, unknown> {
	if (task.answer) {
		const base = completedOutput({ ...task, answer: undefined }, endMs, recordingBase);
		const analysis = approvalAnalysis(task);
		const summary = (analysis.summary as { summary: string }).summary;
		return { ...base, call_summary: summary, post_call_data: analysis };
	}
	const name = String(task.input.name ?? 'there');
	const pick = dropped
		? DROPPED
		: task.outcome === 'do_not_call'
			? OPTED_OUT
			: (OUTCOMES.find((o) => o.outcome === task.outcome) ??
				OUTCOMES[parseInt(task.task_id.slice(1, 3), 16) % OUTCOMES.length]);
	const nominal = dropped ? 4 : 45 + (parseInt(task.task_id.slice(3, 5), 16) % 200);
	const { startMs, duration } = callWindow(task, endMs, nominal);
	const at = (s: number) => callTime(startMs + s * 1000);
	const callback = pick.outcome === 'callback';
	const output: Record<string, unknown> = {
		call_id: `call_${hex(24)}`,
		call_end_reason: 'customer-ended-call',
		start_time: at(0),
		end_time: at(duration),
		assistant_number: '+14155550100',
		call_summary: `${name} spoke with the assistant; outcome: ${pick.outcome.replace('_', ' ')}.`,
		duration,
		recording_url: recordingUrl(recordingBase, task.task_id),
		transcript: [
			{
				role: 'assistant',
				content: greeting(task, name),
				timestamp: at(1),
				message_id: `msg_${hex(8)}`,
			},
			{
				role: 'user',
				content: 'Hi, yes, tell me more.',
				timestamp: at(6),
				participant: String(task.input.contact_number ?? ''),
			},
			{
				role: 'assistant',
				content: 'I can send details and set up a follow-up.',
				timestamp: at(12),
				message_id: `msg_${hex(8)}`,
			},
			{
				role: 'user',
				content: callback
					? 'Call me back next week.'
					: pick === OPTED_OUT
						? 'Please take me off your list and do not call me again.'
						: 'Thanks, bye.',
				timestamp: at(20),
				participant: String(task.input.contact_number ?? ''),
			},
		],
		post_call_data: {
			classification: { labels: pick.labels },
			summary: {
				status: pick.outcome,
				summary: `Call with ${name}: ${pick.outcome.replace('_', ' ')}.`,
				callback_datetime: callback ? callTime(endMs + 7 * 86400000) : '',
				hours_from_now: callback ? '168' : '',
			},
			call_back: null,
			follow_up: { required: callback ? 'yes' : 'no' },
			profile_summary: {
				tone: 'friendly',
				engagement: pick.interest,
				interest_level: pick.interest,
				outcome: pick.outcome,
				next_action: pick.next,
				summary_text: `${name} is ${pick.interest} interest.`,
				objections: pick.outcome === 'not_interested' ? ['price'] : [],
				questions_asked: ['What does it cost?'],
				pain_points: [],
				callback_requested: callback,
				callback_time: callback ? callTime(endMs + 7 * 86400000) : null,
			},
			structured_data: null,
		},
		metadata: {
			cost: Math.round(duration * 0.2) / 100,
			usage: { llm_tokens: duration * 12, tts_characters: duration * 15 },
		},
		call_type: 'outbound',
		call_status: 'completed',
	};
	// The line dropped after the greeting: the voice engine's `droped` (sic).
	if (dropped)
		Object.assign(output, { transcript: (output.transcript as unknown[]).slice(0, 1), call_status: 'droped' });
	return output;
}

const FAILURES = ['no-answer', 'busy', 'failed'];

/** The `call_status` Unpod's voice engine writes for each failure (`CallStatusEnum`). */
const VOICE_STATUS: Record<string, string> = { 'no-answer': 'notConnected', busy: 'busy', failed: 'failed' };

export function failureReason(task: Task): string {
	return FAILURES[(parseInt(task.task_id.slice(1, 3), 16) + task.retry_attempt) % FAILURES.length];
}

/** The output of a call attempt that did not reach the contact. */
export function failedOutput(task: Task, endMs: number): Record<string, unknown> {
	const reason = failureReason(task);
	const { startMs } = callWindow(task, endMs, 30);
	return {
		call_id: `call_${hex(24)}`,
		call_end_reason: reason,
		start_time: callTime(startMs),
		end_time: callTime(endMs),
		assistant_number: '+14155550100',
		call_summary: null,
		duration: 0,
		recording_url: '',
		transcript: [],
		post_call_data: {},
		metadata: { cost: 0, usage: {} },
		call_type: 'outbound',
		call_status: VOICE_STATUS[reason] ?? reason,
		retry_attempt: task.retry_attempt,
		last_failure_reason: task.last_failure_reason,
	};
}
