import { normalizePhone } from '../../../nodes/shared/contacts';
import { DoNotCallList, optOutOf, parseDoNotCallList, saysYes } from '../../../nodes/shared/doNotCall';

test.each([true, 1, 'true', 'TRUE', ' yes ', 'Yes', 'y', '1'])('%p says yes', (value) => {
	expect(saysYes(value)).toBe(true);
});
test.each([false, 0, 'false', 'no', '', 'maybe', null, undefined, {}, 'yes please'])('%p does not', (value) => {
	expect(saysYes(value)).toBe(false);
});

describe('optOutOf: the opt-out in the extracted fields', () => {
	test.each([
		[{ caller_requested_do_not_call: true }, true],
		[{ caller_requested_do_not_call: 'yes' }, true],
		[{ do_not_call: 'true' }, true],
		[{ do_not_call: 'no', caller_requested_do_not_call: false }, false],
		[{ budget: 5000 }, false],
		[null, false],
	])('%p -> %p', (fields, expected) => {
		expect(optOutOf(fields).do_not_call).toBe(expected);
	});

	test('a reason goes with a yes only, on one line, shortened', () => {
		expect(optOutOf({ do_not_call: true, do_not_call_reason: ' Asked to be\n taken off ' })).toEqual({
			do_not_call: true,
			do_not_call_reason: 'Asked to be taken off',
		});
		expect(optOutOf({ do_not_call: false, do_not_call_reason: 'n/a' }).do_not_call_reason).toBeNull();
		const long = optOutOf({ do_not_call: true, do_not_call_reason: 'x'.repeat(500) }).do_not_call_reason!;
		expect(long).toHaveLength(200);
		expect(long.endsWith('…')).toBe(true);
	});
});

describe('DoNotCallList: a number written another way is the same number', () => {
	const list = (...numbers: string[]) => new DoNotCallList(parseDoNotCallList(numbers).numbers);

	test.each([
		['+1 (212) 555-0100', '+12125550100'],
		['001.212.555.0100', '+12125550100'],
		['+44 20 7946 0958', '+442079460958'],
	])('%s matches %s', (entry, number) => {
		expect(list(entry).has(number)).toBe(true);
	});

	test.each([
		['+44 20 7946 0888', '+44 (0)20 7946 0888'],
		['+44 (0)20 7946 0777', '+44 20 7946 0777'],
		['+44 020 7946 0666', '0044 20 7946 0666'],
		['0044 (0)20 7946 0555', '+44 020 7946 0555'],
	])('issue 76: the entry %s stops the contact %s, the (0) or trunk 0 no digit of either', (entry, contact) => {
		expect(list(entry).has(normalizePhone(contact) ?? '')).toBe(true);
		expect(list(contact).has(normalizePhone(entry) ?? '')).toBe(true);
	});

	test('with country codes, only the same number matches', () => {
		const l = list('+12125550100');
		expect(l.has('+12125550101')).toBe(false);
		expect(l.has('+442125550100')).toBe(false);
	});

	test('an entry without a country code matches every number that ends with it, its trunk 0 dropped', () => {
		const l = list('020 7946 0958', '(212) 555-0100');
		expect(l.has('+442079460958')).toBe(true);
		expect(l.has('+12125550100')).toBe(true);
		expect(l.has('+612125550100')).toBe(true);
		expect(l.has('02079460958')).toBe(true);
		expect(l.has('+12125550199')).toBe(false);
	});

	test('a number without a country code matches an entry that ends with it', () => {
		const l = list('+12125550100');
		expect(l.has('2125550100')).toBe(true);
		expect(l.has('(0)2125550100'.replace(/\D/g, ''))).toBe(true);
		expect(l.has('5550100')).toBe(true);
		expect(l.has('2125550101')).toBe(false);
	});

	test('lookups cost the same at 10,000 entries', () => {
		const many = Array.from({ length: 10_000 }, (_, i) => `+1212${String(i).padStart(7, '0')}`);
		const l = new DoNotCallList(many);
		expect(l.size).toBe(10_000);
		expect(l.has('+12120009999')).toBe(true);
		expect(l.has('+12120010000')).toBe(false);
	});
});

describe('parseDoNotCallList', () => {
	test('a list, rows with a phone, text by lines, commas or semicolons, a JSON array as text', () => {
		expect(parseDoNotCallList(['+1 212 555 0100', 4155550100]).numbers).toEqual(['+12125550100', '4155550100']);
		expect(parseDoNotCallList([{ phone: '+12125550100' }, { contact_number: '0044 20 7946 0958' }]).numbers).toEqual([
			'+12125550100',
			'+442079460958',
		]);
		expect(parseDoNotCallList('+12125550100\n+12125550101, +12125550102; ').numbers).toHaveLength(3);
		expect(parseDoNotCallList('["+12125550100"]').numbers).toEqual(['+12125550100']);
		expect(parseDoNotCallList('').numbers).toEqual([]);
		expect(parseDoNotCallList(undefined).numbers).toEqual([]);
	});

	test('an entry that is not a phone number is named by its place', () => {
		expect(parseDoNotCallList(['+12125550100', 'ann@example.com', '', '12345', { name: 'Bo' }]).bad).toEqual([
			{ position: 2, value: 'ann@example.com' },
			{ position: 4, value: '12345' },
			{ position: 5, value: '{"name":"Bo"}' },
		]);
	});
});
