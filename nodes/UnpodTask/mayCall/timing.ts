/**
 * The gate's last two checks, made in the send step once the space's recent calls are read: the
 * law's hours and limits of calls (whenToCall.ts), then the space's Max Calls per Day
 * (dailyCap.ts). A row either check holds is not sent; its item says why and when it may be.
 */
import type { IDataObject } from 'n8n-workflow';
import type { Row } from './contactRow';
import { DailyCap } from './dailyCap';
import { CallTally, keepCallingHours, recheckNow } from './whenToCall';
import type { SpaceCalls } from './whenToCall';

/** A row not sent for its time: its callee's hours or limits (`hours`), or the space's cap (`cap`). */
export type Held = { kind: 'held'; answer: IDataObject; by: 'hours' | 'cap' };

/** What the hours and the cap counted in one send: the space's calls and this run's rows accepted so far. */
export class CallTiming {
	private tally: CallTally;
	private cap: DailyCap;

	constructor(existing: Map<string, SpaceCalls> | undefined, maxCallsPerDay: number) {
		this.tally = new CallTally(existing);
		this.cap = new DailyCap(maxCallsPerDay, existing);
	}

	/** `rows` at `now`, in order: each moved into its callee's window (or held), then held where over the cap. */
	admit<R extends Row>(rows: R[], now: number): Map<R, Held> {
		const held = new Map<R, Held>();
		const cap = this.cap.batch(now);
		const hours = keepCallingHours(rows, now, this.tally, (row) => {
			const answer = cap(row);
			if (answer) held.set(row, { kind: 'held', answer, by: 'cap' });
			return answer !== undefined;
		});
		for (const [row, answer] of hours) held.set(row, { kind: 'held', answer, by: 'hours' });
		return held;
	}

	/**
	 * A batch about to go after a wait: each row sent now checked again at `now` for its window
	 * (then counted in place of what it was counted for), the cap again for the rest.
	 */
	recheck<R extends Row>(batch: R[], now: number): Map<R, Held> {
		const held = new Map<R, Held>();
		const late = recheckNow(batch, now, this.tally);
		for (const row of late.keys()) this.cap.drop(row);
		for (const [row, answer] of late) held.set(row, { kind: 'held', answer, by: 'hours' });
		const over = this.cap.admit(
			batch.filter((row) => !late.has(row)),
			now,
		);
		for (const [row, answer] of over) {
			// Not called: its number's limits do not count it.
			this.tally.drop(row);
			held.set(row, { kind: 'held', answer, by: 'cap' });
		}
		return held;
	}
}
