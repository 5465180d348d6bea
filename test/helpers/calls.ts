/** Calls of the local server with a known course, for tests of Unpod's post-call. */
import { droppedCall } from '../../dev/server/callLifecycle';

/**
 * A phone number, counted up from `from`, whose call drops after the greeting (`drops`) or does
 * not, for an agent with post-call settings (the server decides by number and the call's place,
 * which `input` may set: `{redial_count: 2}`).
 */
export function phoneThat(
	drops: boolean,
	from: number,
	input: Record<string, unknown> = {},
	prefix = '+4930666',
): { number: string; next: number } {
	for (let n = from; ; n++) {
		const number = `${prefix}${String(n).padStart(4, '0')}`;
		if (droppedCall({ input: { ...input, contact_number: number }, output: {} }) === drops)
			return { number, next: n + 1 };
	}
}
