import { normalizePhone, toContactDocument } from '../../../nodes/shared/contacts';

describe('normalizePhone', () => {
	test.each([
		['(415) 555-0100', '', '4155550100'],
		['415.555.0100', '', '4155550100'],
		['+44 20 7946 0958', '', '+442079460958'],
		['0044 20 7946 0958', '', '+442079460958'],
		['(415) 555-0100', '+1', '+14155550100'],
		['1 415 555 0100', '1', '+14155550100'],
		['020 7946 0958', '+44', '+442079460958'],
		['+33 1 23 45 67 89', '+1', '+33123456789'],
		[4155550100, '', '4155550100'],
		// A number that is one in use only with the code at its start, as a sheet that dropped its + keeps it.
		['442079460958', '+44', '+442079460958'],
	])('%s (default %s) -> %s', (raw, cc, expected) => {
		expect(normalizePhone(raw, cc)).toBe(expected);
	});

	describe('issue 76: numbers as people write them', () => {
		test.each([
			// Fix 7: the trunk zero in brackets, or after the code, is no digit of the number.
			['+44 (0)909 879 0000', '', '+449098790000'],
			['+44 0909 879 0000', '', '+449098790000'],
			['+49 (0)900 1 234567', '', '+499001234567'],
			['+33 (0)8 99 12 34 56', '', '+33899123456'],
			['+61 (0)1900 123 456', '', '+611900123456'],
			// One number however it is written.
			['+44 (0)20 7946 0888', '', '+442079460888'],
			['+44 020 7946 0888', '', '+442079460888'],
			['0044 20 7946 0888', '', '+442079460888'],
			['0044 (0)20 7946 0888', '', '+442079460888'],
			['020 7946 0888', '+44', '+442079460888'],
			// Italy's leading 0 is part of its numbers: it stays.
			['+39 06 1234 5678', '', '+390612345678'],
			['06 1234 5678', '+39', '+390612345678'],
			// Fix 8: a number without a code is read in the Default Country Code, with the country's own trunk rule.
			['19005551234', '+1', '+19005551234'],
			['(755) 895-2455', '+1', '+17558952455'],
			['8 (916) 123-45-67', '+7', '+79161234567'],
		])('%s (default %s) -> %s', (raw, cc, expected) => {
			expect(normalizePhone(raw, cc)).toBe(expected);
		});
	});

	test.each(['abc', '12345', '', '   ', '+1234567890123456', '555-CALL-NOW', null, undefined])(
		'%s is not a phone number',
		(raw) => {
			expect(normalizePhone(raw)).toBeUndefined();
		},
	);
});

describe('toContactDocument', () => {
	test('keeps non-empty optional fields, splits labels, normalizes numbers', () => {
		expect(
			toContactDocument(
				{
					name: ' Ann ',
					contact_number: '(415) 555-0100',
					email: 'a@x.io',
					labels: 'a, b,',
					about: '',
					alternate_number: '415.555.0101',
				},
				'+1',
			),
		).toEqual({
			document: {
				name: 'Ann',
				contact_number: '+14155550100',
				email: 'a@x.io',
				labels: ['a', 'b'],
				alternate_number: '+14155550101',
			},
		});
	});
	test('names the field at fault', () => {
		expect(toContactDocument({ contact_number: '4155550100' })).toEqual({ field: 'name', message: 'name is missing' });
		expect(toContactDocument({ name: 'A' })).toEqual({ field: 'contact_number', message: 'contact_number is missing' });
		expect(toContactDocument({ name: 'A', contact_number: '12' })).toMatchObject({ field: 'contact_number' });
		expect(toContactDocument({ name: 'A', contact_number: '+14155550100', alternate_number: 'x' })).toMatchObject({
			field: 'alternate_number',
		});
	});

	test('a number without a country code and no Default Country Code is not called: the item names the field and the option (fix 8)', () => {
		expect(toContactDocument({ name: 'A', contact_number: '19005551234' })).toEqual({
			field: 'contact_number',
			message:
				'contact_number "19005551234" has no country code and Options > Default Country Code is empty: write it with + and its country code, or set Default Country Code',
		});
		expect(toContactDocument({ name: 'A', contact_number: '+14155550100', alternate_number: '4155550101' })).toEqual({
			field: 'alternate_number',
			message:
				'alternate_number "4155550101" has no country code and Options > Default Country Code is empty: write it with + and its country code, or set Default Country Code',
		});
		expect(toContactDocument({ name: 'A', contact_number: '19005551234' }, '+1')).toEqual({
			document: { name: 'A', contact_number: '+19005551234' },
		});
	});

	test('the alternate number is read as the number is (fix 9)', () => {
		expect(
			toContactDocument({ name: 'A', contact_number: '+44 (0)20 7946 0888', alternate_number: '+44 (0)909 879 0000' }),
		).toEqual({ document: { name: 'A', contact_number: '+442079460888', alternate_number: '+449098790000' } });
	});
});
