/** A bridge's slug: made from its name, a given one checked, a taken one named (nodes/UnpodBridge/resources/bridge/bridge.slug.ts). */
import {
	SLUG_MAX_LENGTH,
	slugFromName,
	slugProblem,
	slugTakenMessage,
} from '../../../nodes/UnpodBridge/resources/bridge/bridge.slug';

test.each([
	['Sales Line', 'sales-line'],
	['  Sales   Line  ', 'sales-line'],
	['Sales_Line #2 (EU)', 'sales-line-2-eu'],
	['Café Crème', 'cafe-creme'],
	['Ünïcödé Straße', 'unicode-strae'],
	['--Support--', 'support'],
	['24/7 Line', '24-7-line'],
	['!!!', ''],
	['营销线路', ''],
])('slugFromName(%j) is %j', (name, slug) => {
	expect(slugFromName(name)).toBe(slug);
});

test('a long name is cut at the limit, and no "-" is left at the cut', () => {
	const slug = slugFromName(`${'a'.repeat(SLUG_MAX_LENGTH - 1)} bcd`);
	expect(slug).toBe('a'.repeat(SLUG_MAX_LENGTH - 1));
	expect(slugFromName('x'.repeat(80))).toHaveLength(SLUG_MAX_LENGTH);
});

test.each([
	['sales-line', undefined],
	['Sales_EU-2', undefined],
	['sales line', 'Slug "sales line" may hold only letters, digits, "-" and "_"'],
	['sales/line', 'Slug "sales/line" may hold only letters, digits, "-" and "_"'],
	['a'.repeat(SLUG_MAX_LENGTH), undefined],
	['a'.repeat(SLUG_MAX_LENGTH + 1), `Slug "${'a'.repeat(SLUG_MAX_LENGTH + 1)}" is longer than 50 characters`],
])('slugProblem(%j)', (slug, problem) => {
	expect(slugProblem(slug)).toBe(problem);
});

test('a taken slug names the field to change: the Slug, or the Name it came from', () => {
	expect(slugTakenMessage('sales-line', false)).toBe(
		'Slug "sales-line" is already used by another bridge: set another Slug',
	);
	expect(slugTakenMessage('sales-line', true)).toBe(
		'Slug "sales-line", made from the Name, is already used by another bridge: set a Slug, or another Name',
	);
});
