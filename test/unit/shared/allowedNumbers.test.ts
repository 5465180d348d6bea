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
	['+882123456789', undefined, 'international network'],
	// The other codes refused whole.
	['+881612345678', undefined, 'satellite'],
	['+88320001234567', undefined, 'international network'],
	['+979123456789', undefined, 'international premium-rate'],
	['+80812345678', undefined, 'international shared-cost'],
	// Shared cost and personal numbers.
	['+33810123456', 'FR', 'shared-cost'],
	['+34901123456', 'ES', 'shared-cost'],
	['+4918012345678', 'DE', 'shared-cost'],
	['+447012345678', 'GB', 'personal'],
	['+15002345678', 'US', 'personal'],
	// A costly number with a digit too many still reaches the costly line.
	['+4990012345678', 'DE', 'premium-rate'],
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
	['+447700900123', 'GB'],
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

test('a number without a country code, or no number, is nothing known', () => {
	for (const number of ['2125550123', '', '+', '+0123456789', 'call me']) expect(plans.of(number)).toEqual({});
});

test('the countries the data knows, to check what a user typed', () => {
	for (const code of ['US', 'CA', 'GB', 'FR', 'JM', 'KZ', 'GG']) expect(NumberPlans.COUNTRIES.has(code)).toBe(true);
	for (const code of ['USA', 'UK', 'EU', 'XX', 'us']) expect(NumberPlans.COUNTRIES.has(code)).toBe(false);
	expect(NumberPlans.COUNTRIES.size).toBeGreaterThan(240);
});
