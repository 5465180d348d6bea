/**
 * Max Calls per Day: at most that many calls of a space ring in any 24 hours, whoever placed them
 * (other workflows, Unpod's own follow-ups and redials, this run). A call counts when it rings
 * (its schedule), and a redial once more for each. A row over the cap is not sent: its item says
 * so, and gives the earliest time it would fit. The calls already in the space come from the one
 * read of recent tasks the duplicate guard and the limits share (send.ts): no request more.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { DAY_MS } from '../../shared/time';
import type { Row } from './contactRow';
import { requestedInstant } from './whenToCall';
import type { SpaceCalls } from './whenToCall';

export const maxCallsPerDayOption: INodeProperties = {
	displayName: 'Max Calls per Day',
	name: 'maxCallsPerDay',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description:
		"At most this many calls of the space ring in any 24 hours, whoever placed them: other workflows, Unpod's own follow-ups and redials, and this run. 0: no cap.",
	hint: "A contact over it is not called; its item gives the earliest time it fits. Counted from the space's recent tasks, read once a run.",
};

/** Ring times, kept sorted: inserting and counting a window are a binary search each. */
class Timeline {
	constructor(readonly times: number[]) {}

	/** The index of the first time at or after `t`. */
	private from(t: number): number {
		let lo = 0;
		let hi = this.times.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (this.times[mid] < t) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}

	/** How many times fall in [a, b). */
	count(a: number, b: number): number {
		return this.from(b) - this.from(a);
	}

	add(t: number): void {
		this.times.splice(this.from(t), 0, t);
	}

	remove(t: number): void {
		const i = this.from(t);
		if (this.times[i] === t) this.times.splice(i, 1);
	}

	/**
	 * Whether a call at `t` keeps every 24 hours that hold it under `cap`. Fewer than `cap` calls
	 * within 24 hours either side say yes at once; else the windows that start at a call within
	 * the 24 hours before `t`, or at `t`, are the ones that can hold most.
	 */
	fits(t: number, cap: number): boolean {
		if (this.count(t - DAY_MS + 1, t + DAY_MS) < cap) return true;
		if (this.count(t, t + DAY_MS) >= cap) return false;
		for (let i = this.from(t - DAY_MS + 1); i < this.times.length && this.times[i] <= t; i++)
			if (this.count(this.times[i], this.times[i] + DAY_MS) >= cap) return false;
		return true;
	}

	/** The first instant at or after `t` where a call fits under `cap`: `t`, or when a call leaves the window. */
	firstFit(t: number, cap: number): number {
		if (this.fits(t, cap)) return t;
		for (let i = this.from(t - DAY_MS + 1); i < this.times.length; i++) {
			const leaves = this.times[i] + DAY_MS;
			if (leaves > t && this.fits(leaves, cap)) return leaves;
		}
		return Math.max(t, (this.times[this.times.length - 1] ?? t) + DAY_MS);
	}
}

/**
 * The calls counted for the cap in each space: those already in it, and the rows of this send
 * accepted so far (each row's own, so that a row decided again is counted once).
 */
export class DailyCap {
	private spaces = new Map<string, Timeline>();
	private ofRow = new Map<Row, { space: string; at: number }>();

	constructor(
		private cap: number,
		private existing?: Map<string, SpaceCalls>,
	) {}

	private timeline(space: string): Timeline {
		let line = this.spaces.get(space);
		if (!line) {
			line = new Timeline([...(this.existing?.get(space)?.allCallTimes() ?? [])]);
			this.spaces.set(space, line);
		}
		return line;
	}

	/**
	 * Each row in order: counted at the time it rings (its schedule, else `now`), or, over Max
	 * Calls per Day, held with what its item says. Returns the held.
	 */
	admit<R extends Row>(rows: R[], now: number): Map<R, IDataObject> {
		const held = new Map<R, IDataObject>();
		// Rows sent at one time against a full day: once one does not fit, none after it does.
		const full = new Map<string, number>();
		for (const row of rows) {
			this.drop(row);
			const { cap } = this;
			if (!cap) continue;
			const { space } = row.request;
			const at = requestedInstant(row.request.body) ?? now;
			const line = this.timeline(space);
			const key = `${space} ${at}`;
			const next = full.get(key) ?? line.firstFit(at, cap);
			if (next !== at) {
				full.set(key, next);
				held.set(row, {
					unpod_created: false,
					unpod_held: `${String(row.document.contact_number)}: Max Calls per Day (${cap}) reached: ${line.count(at - DAY_MS + 1, at + DAY_MS)} calls of space ${space} ring within 24 hours of ${new Date(at).toISOString()}; not called`,
					unpod_next_allowed_at: new Date(next).toISOString(),
				});
				continue;
			}
			line.add(at);
			this.ofRow.set(row, { space, at });
		}
		return held;
	}

	/** Forgets the call a row was counted for, if any (a row decided again after a wait). */
	drop(row: Row): void {
		const counted = this.ofRow.get(row);
		if (!counted) return;
		this.timeline(counted.space).remove(counted.at);
		this.ofRow.delete(row);
	}
}
