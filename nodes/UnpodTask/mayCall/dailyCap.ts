/**
 * Max Calls per Day: at most that many calls of a space ring in any 24 hours, whoever placed them
 * (other workflows, Unpod's own follow-ups and redials, this run). A call counts when it rings
 * (its schedule), and a redial once more for each. A row over the cap is not sent: its item says
 * so, and gives the earliest time it would fit. The calls already in the space come from the one
 * read of recent tasks the duplicate guard and the limits share (send.ts): no request more.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { RollingWindow } from '../../shared/rollingWindow';
import { DAY_MS } from '../../shared/time';
import type { Row } from './contactRow';
import { firstCallable, requestedInstant, SCHEDULE_HORIZON_DAYS } from './whenToCall';
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

/**
 * A space's calls as the cap counts them: `line`, those that ring (in the space, and this run's
 * rows admitted); `promised`, those and the time each held row was told it fits, so that two held
 * rows are not told the same room; `run` and `items`, this run's own, by time, for what an item says.
 */
interface Timelines {
	line: RollingWindow;
	promised: RollingWindow;
	run: RollingWindow;
	items: Map<number, number[]>;
}

/**
 * The calls counted for the cap in each space: those already in it, and the rows of this send
 * accepted so far (each row's own, so that a row decided again is counted once).
 */
export class DailyCap {
	private spaces = new Map<string, Timelines>();
	private ofRow = new Map<Row, { space: string; at: number }>();

	constructor(
		private cap: number,
		private existing?: Map<string, SpaceCalls>,
	) {}

	private timelines(space: string): Timelines {
		let lines = this.spaces.get(space);
		if (!lines) {
			const times = [...(this.existing?.get(space)?.allCallTimes() ?? [])];
			lines = {
				line: new RollingWindow(times, DAY_MS),
				promised: new RollingWindow(times, DAY_MS),
				run: new RollingWindow([], DAY_MS),
				items: new Map(),
			};
			this.spaces.set(space, lines);
		}
		return lines;
	}

	/**
	 * Each row in order: counted at the time it rings (its schedule, else `now`), or, over Max
	 * Calls per Day, held with what its item says: the calls counted, and the first time after the
	 * rows held before it that fits and is legal for its callee. Returns the held.
	 */
	admit<R extends Row>(rows: R[], now: number): Map<R, IDataObject> {
		const held = new Map<R, IDataObject>();
		const admit = this.batch(now);
		for (const row of rows) {
			const answer = admit(row);
			if (answer) held.set(row, answer);
		}
		return held;
	}

	/** admit, a row at a time: what a held row's item says, or undefined when it is counted. */
	batch(now: number): (row: Row) => IDataObject | undefined {
		// Rows sent at one time against a full day share what their items say, and each is told
		// the first room after the one before it.
		const full = new Map<string, { said: string; from: number }>();
		return (row) => {
			this.drop(row);
			const { cap } = this;
			if (!cap) return undefined;
			const { space } = row.request;
			const at = requestedInstant(row.request.body) ?? now;
			const lines = this.timelines(space);
			const { line, promised } = lines;
			// Its callee's clock is in the sentence: rows of one space, time and callee share it.
			const key = `${space} ${at} ${row.hours?.callee.zones.join() ?? ''}`;
			let blocked = full.get(key);
			if (!blocked) {
				const period = line.full(at, cap);
				if (period) full.set(key, (blocked = { said: this.countedText(row, lines, period, at, space), from: at }));
			}
			if (blocked) {
				const next = this.nextRoom(row, blocked.from, at, promised);
				if (next !== undefined) {
					promised.add(next);
					blocked.from = next;
				}
				return {
					unpod_created: false,
					unpod_held: `${row.where}: ${String(row.document.contact_number)}: ${blocked.said}; not called${next === undefined ? `; no room within ${SCHEDULE_HORIZON_DAYS} days` : `; it may be called from ${this.localTime(row, next)}`}`,
					unpod_next_allowed_at: next === undefined ? null : new Date(next).toISOString(),
				};
			}
			line.add(at);
			promised.add(at);
			lines.run.add(at);
			const ofTime = lines.items.get(at) ?? [];
			ofTime.push(row.itemIndex + 1);
			lines.items.set(at, ofTime);
			this.ofRow.set(row, { space, at });
			return undefined;
		};
	}

	/** The first time at or after `from` with room under the cap among `promised`, legal for the row's callee, and not farther past the time it `asked` than the package moves a call. */
	private nextRoom(row: Row, from: number, asked: number, promised: RollingWindow): number | undefined {
		let at: number | undefined = from;
		for (let tries = 0; tries < 50 && at !== undefined; tries++) {
			if (at - asked > SCHEDULE_HORIZON_DAYS * DAY_MS) return undefined;
			const fits = promised.firstFit(at, this.cap);
			const legal = row.hours ? firstCallable(row.hours.book, row.hours.callee, fits) : fits;
			if (legal === fits) return fits;
			at = legal;
		}
		return undefined;
	}

	/** `Max Calls per Day (2) reached: 2 calls of space S1 ring in the 24 hours around ...: ...`. */
	private countedText(
		row: Row,
		{ line, run, items }: Timelines,
		period: { from: number; to: number },
		at: number,
		space: string,
	): string {
		const counted = line.count(period.from, period.to);
		const fromRun = run.count(period.from, period.to);
		// The first ten items of this run in the period, found from its times: not a pass over every row.
		const ofRun = new Set<number>();
		for (const t of new Set(run.first(period.from, period.to, 10)))
			for (const item of items.get(t) ?? []) if (ofRun.size < 11) ofRun.add(item);
		const inSpace = counted - fromRun;
		const parts = [
			...(inSpace ? [`${inSpace} already in the space`] : []),
			...(fromRun
				? [`${fromRun} of this run (items ${[...ofRun].slice(0, 10).join(', ')}${fromRun > 10 ? ', ...' : ''})`]
				: []),
		];
		return `Max Calls per Day (${this.cap}) reached: ${counted} calls of space ${space} ring in the 24 hours around ${this.localTime(row, at)}: ${parts.join(' and ')}; executions running at once do not count each other's`;
	}

	private localTime(row: Row, ms: number): string {
		const hours = row.hours;
		return hours?.callee.zones.length ? hours.book.localTime(ms, hours.callee) : new Date(ms).toISOString();
	}

	/** Forgets the call a row was counted for, if any (a row decided again after a wait). */
	drop(row: Row): void {
		const counted = this.ofRow.get(row);
		if (!counted) return;
		const { line, promised, run, items } = this.timelines(counted.space);
		line.remove(counted.at);
		promised.remove(counted.at);
		run.remove(counted.at);
		const at = items.get(counted.at) ?? [];
		at.splice(at.indexOf(row.itemIndex + 1), 1);
		this.ofRow.delete(row);
	}
}
