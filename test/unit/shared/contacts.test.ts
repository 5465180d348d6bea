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
	])('%s (default %s) -> %s', (raw, cc, expected) => {
		expect(normalizePhone(raw, cc)).toBe(expected);
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
		expect(toContactDocument({ name: 'A', contact_number: '4155550100', alternate_number: 'x' })).toMatchObject({
			field: 'alternate_number',
		});
	});
});
