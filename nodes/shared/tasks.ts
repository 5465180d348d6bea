/** Unpod's task states; the last three are final. */
export const TASK_STATUSES = [
	{ name: 'Pending', value: 'pending' },
	{ name: 'Scheduled', value: 'scheduled' },
	{ name: 'In Progress', value: 'in_progress' },
	{ name: 'Processing', value: 'processing' },
	{ name: 'On Hold', value: 'hold' },
	{ name: 'Completed', value: 'completed' },
	{ name: 'Failed', value: 'failed' },
	{ name: 'Partially Completed', value: 'partially_completed' },
];

/**
 * Final task states. Every other status (pending, scheduled, in_progress, processing, hold,
 * and any the node does not know) is open: the call may still end. A failed attempt goes
 * back to pending, so it is not an ending.
 */
export const FINAL_STATUSES = ['completed', 'failed', 'partially_completed'] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];
export const isFinal = (status: unknown): status is FinalStatus =>
	(FINAL_STATUSES as readonly unknown[]).includes(status);

/** The endings a trigger can start on, named the same by both triggers. */
export const CALL_ENDINGS: Array<{ name: string; value: FinalStatus }> = [
	{ name: 'Call Completed', value: 'completed' },
	{ name: 'Call Failed', value: 'failed' },
	{ name: 'Call Partially Completed', value: 'partially_completed' },
];
