/** The daily report's code (examples/code/), as its Code node runs it: yesterday against the day before, and Unpod's own figures. */
import { A_CAMPAIGN, ANALYTICS, report } from './example-code-fixtures';

test('the daily report: yesterday against the day before, as mail-safe HTML and a Slack message', () => {
	const out = report(A_CAMPAIGN);
	expect(out.day).toBe('2026-11-25');
	expect(out.yesterday).toEqual({ reached: 2, callback_due: 1, gave_up: 0, do_not_call: 0, added: 6 });
	expect(out.day_before).toEqual({ reached: 1, callback_due: 0, gave_up: 1, do_not_call: 0, added: 20 });
	expect(out.now).toMatchObject({ reached: 4, callback_due: 1, gave_up: 1, new: 1, calling: 3 });
	expect(out.subject).toBe('Unpod campaign, Wednesday 25 November 2026: 2 reached, 1 callbacks scheduled');
	expect(out.html).not.toMatch(/<svg|<script|<style|https?:\/\//i);
	expect(out.html).toMatch(
		/data-figure="reached"><td[^>]*>Reached<\/td><td[^>]*><b>2<\/b><\/td><td[^>]*>1<\/td><td[^>]*>\+1</,
	);
	expect(out.slack.text).toContain('Reached: *2* (2026-11-24: 1, +1)');
	expect(out.slack.text).toContain('Gave up: *0* (2026-11-24: 1, -1)');
	expect(out.slack.blocks[0]).toEqual({
		type: 'header',
		text: { type: 'plain_text', text: 'Unpod campaign, Wednesday 25 November 2026' },
	});
	// Today so far (Report on: 0): rows added today are those after yesterday's first... none here.
	const evening = report(
		{ ...A_CAMPAIGN, fromDayBefore: A_CAMPAIGN.fromThatDay, fromThatDay: undefined },
		{},
		ANALYTICS,
		0,
	);
	expect(evening.day).toBe('2026-11-26');
	expect(evening.yesterday).toEqual({ reached: 1, callback_due: 0, gave_up: 0, do_not_call: 0, added: 0 });
	expect(evening.day_before).toMatchObject({ reached: 2, added: 6 });
});

test('a report of an empty campaign says nothing happened', () => {
	const out = report({});
	expect(out.yesterday).toEqual({ reached: 0, callback_due: 0, gave_up: 0, do_not_call: 0, added: 0 });
	expect(out.now).toMatchObject({ new: 0, reached: 0 });
});

test("the report counts Unpod's calls since the last report from its second morning on", () => {
	const kept: Record<string, unknown> = {};
	expect(report({}, kept).unpod).toEqual({ total_calls: 41, success_rate: 72.5, calls_since_last_report: null });
	expect(kept.unpodTotalCalls).toBe(41);
	expect(report({}, kept, { ...ANALYTICS, total_calls: 60 }).unpod.calls_since_last_report).toBe(19);
	expect(report({}, kept, { error: 'down' } as never).unpod).toEqual({
		total_calls: null,
		success_rate: null,
		calls_since_last_report: null,
	});
	expect(kept.unpodTotalCalls).toBe(60);
});
