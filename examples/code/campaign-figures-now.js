// The campaign's figures now: the total and the changes not yet added up in it.
return [{ json: campaignFigures($('The figures').all(), $input.all()) }];
