import { otherSpelling } from '../../../nodes/shared/transport';

test("the provider configurations' two spellings (source and docs) lead to each other; other paths have none", () => {
	expect(otherSpelling('/telephony/provider-configurations/101/')).toBe('/telephony/providers-configurations/101/');
	expect(otherSpelling('/telephony/providers-configurations/')).toBe('/telephony/provider-configurations/');
	expect(otherSpelling('/telephony/bridges/')).toBeUndefined();
});
