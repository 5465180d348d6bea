/** What a number is, from libphonenumber's metadata generated at build time: its country, and whether it costs more. */
import { NumberPlans } from '../../../nodes/shared/allowedNumbers/numberPlans';

const plans = new NumberPlans();

test.each([
	// The six, as a new user pasted them.
	['+19005550123', 'US', 'premium-rate'],
	['+449090901234', 'GB', 'premium-rate'],
	['+33899123456', 'FR', 'premium-rate'],
	['+499001234567', 'DE', 'premium-rate'],
	['+870773123456', undefined, 'satellite'],
	// The other codes refused whole.
	['+881612345678', undefined, 'satellite'],
	['+979123456789', undefined, 'international premium-rate'],
	['+80812345678', undefined, 'international shared-cost'],
	// Shared cost and personal numbers.
	['+33810123456', 'FR', 'shared-cost'],
	['+34901123456', 'ES', 'shared-cost'],
	['+4918012345678', 'DE', 'shared-cost'],
	['+447012345678', 'GB', 'personal'],
	['+15002345678', 'US', 'personal'],
])('%s is a number of %s that costs more: %s', (number, country, costly) => {
	expect(plans.of(number)).toEqual({ callingCode: expect.any(String), ...(country ? { country } : {}), costly });
});

test.each([
	['+12125550123', 'US'],
	['+14165550123', 'CA'],
	['+18765550123', 'JM'],
	['+17875550123', 'PR'],
	['+442079460321', 'GB'],
	['+441481234567', 'GG'],
	['+447400123456', 'GB'],
	['+447911123456', 'GG'],
	['+33612345678', 'FR'],
	['+61412345678', 'AU'],
	['+79161234567', 'RU'],
	['+77012345678', 'KZ'],
	['+8613800138000', 'CN'],
	// Toll-free costs the caller nothing more.
	['+18005550123', 'US'],
	['+80012345678', undefined],
])('%s is an ordinary number of %s', (number, country) => {
	expect(plans.of(number)).toEqual({ callingCode: expect.any(String), ...(country ? { country } : {}) });
});

test('a code refused whole is refused whatever its number, in use or not', () => {
	expect(plans.of('+882123456789')).toMatchObject({ costly: 'international network' });
	expect(plans.of('+88320001234567')).toMatchObject({ costly: 'international network' });
});

describe('costly patterns are matched whole (issue 76, fix 10)', () => {
	test.each([
		['+816013062011', 'JP', 'a Japanese mobile'],
		['+862596777615', 'CN', 'a fixed line of Nanjing'],
		['+64508894804', 'NZ', 'a toll-free number'],
		['+37618000750', 'AD', 'a toll-free number'],
	])('%s is an ordinary number of %s: %s', (number, country) => {
		expect(plans.of(number)).toEqual({ callingCode: expect.any(String), country });
	});

	test('a costly prefix with a digit too many is no number in use, not a costly one', () => {
		expect(plans.of('+4990012345678')).toEqual({
			callingCode: '49',
			country: 'DE',
			notInUse: "it is no kind of number of DE (+49) in Google's libphonenumber data",
		});
	});
});

describe('a number no plan of its code takes is no number in use', () => {
	test.each([
		['+17558952455', "+1 755 is not assigned in Google's libphonenumber data"],
		['+15550100201', "+1 555 is not assigned in Google's libphonenumber data"],
		['+14151234567', "it is no kind of number of +1 in Google's libphonenumber data"],
		['+447700900123', "it is no kind of number of +44 in Google's libphonenumber data"],
		[
			'+4420794608881',
			"a number of +44 has 7, 9 or 10 digits after the country code in Google's libphonenumber data, not 11",
		],
		['+0123456789', '+012 is no country calling code'],
	])('%s: %s', (number, notInUse) => {
		expect(plans.of(number).notInUse).toBe(notInUse);
	});

	test('a number without a country code, or no number, is nothing known', () => {
		for (const number of ['2125550123', '', '+', 'call me']) expect(plans.of(number)).toEqual({});
	});
});

describe('national: a trunk prefix read off as libphonenumber reads it', () => {
	test.each([
		['44', '09098790000', '9098790000'],
		['49', '09001234567', '9001234567'],
		['33', '0899123456', '899123456'],
		['61', '01900123456', '1900123456'],
		['1', '14155550123', '4155550123'],
		// Italy's 0 is part of its numbers; a number in use as written keeps its digits.
		['39', '0612345678', '0612345678'],
		['44', '2079460888', '2079460888'],
		// No reading makes it one in use: it stays as written, and is refused as such.
		['44', '0123', '0123'],
	])('+%s %s -> %s', (code, digits, national) => {
		expect(plans.national(code, digits)).toBe(national);
	});
});

test('the countries the data knows, to check what a user typed', () => {
	for (const code of ['US', 'CA', 'GB', 'FR', 'JM', 'KZ', 'GG']) expect(NumberPlans.COUNTRIES.has(code)).toBe(true);
	for (const code of ['USA', 'UK', 'EU', 'XX', 'us']) expect(NumberPlans.COUNTRIES.has(code)).toBe(false);
	expect(NumberPlans.COUNTRIES.size).toBeGreaterThan(240);
});
