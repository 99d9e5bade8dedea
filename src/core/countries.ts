// Countries as people type them: the name the catalog uses, the ISO 3166 codes and the
// common other names. Search reads "de" or "uk" as a country, and location factors'
// bases written "USA" or "United States" compare as one. The emulator keeps its own
// country list on purpose (docs/decisions.md D21).

export interface Country {
  /** The name as the catalog writes it (its `location` field). */
  name: string;
  /** ISO 3166-1 alpha-2 and alpha-3 codes, lower case. */
  iso2: string;
  iso3: string;
  /** Other names people use, lower case. */
  aliases: readonly string[];
}

/** One line per country: "alpha-2 alpha-3 Name;alias;alias" (compact: it ships with the functions). */
const TABLE = `
us usa United States;united states of america;america;u.s.;u.s;u.s.a.;u.s.a
gb gbr United Kingdom;uk;u.k.;great britain;britain;england
de deu Germany;deutschland
fr fra France
it ita Italy
es esp Spain
nl nld Netherlands;holland;the netherlands
be bel Belgium
at aut Austria
ch che Switzerland
pl pol Poland
cz cze Czech Republic;czechia
hu hun Hungary
se swe Sweden
no nor Norway
fi fin Finland
dk dnk Denmark
ie irl Ireland
pt prt Portugal
gr grc Greece
ro rou Romania
tr tur Turkey;turkiye
ru rus Russia;russian federation
ua ukr Ukraine
cn chn China;prc
jp jpn Japan
kr kor South Korea;korea;republic of korea
tw twn Taiwan
in ind India
id idn Indonesia
th tha Thailand
my mys Malaysia
sg sgp Singapore
ph phl Philippines
vn vnm Vietnam;viet nam
au aus Australia
nz nzl New Zealand
sa sau Saudi Arabia;ksa
ae are United Arab Emirates;uae
qa qat Qatar
kw kwt Kuwait
ir irn Iran
eg egy Egypt
za zaf South Africa;rsa
ng nga Nigeria
ca can Canada
mx mex Mexico
br bra Brazil
ar arg Argentina
cl chl Chile
co col Colombia
pe per Peru
`;

function parseTable(text: string): Country[] {
  const countries: Country[] = [];
  for (const line of text.split("\n")) {
    const match = /^(\w\w) (\w{3}) (.+)$/.exec(line.trim());
    if (!match) continue;
    const [name = "", ...aliases] = (match[3] ?? "").split(";");
    countries.push({ name, iso2: match[1] ?? "", iso3: match[2] ?? "", aliases });
  }
  return countries;
}

export const COUNTRIES: readonly Country[] = parseTable(TABLE);

function normalise(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}

const BY_ANY_NAME = new Map<string, Country>();
for (const country of COUNTRIES) {
  for (const name of [country.name, country.iso2, country.iso3, ...country.aliases]) {
    BY_ANY_NAME.set(normalise(name), country);
  }
}

/** The country a name, an ISO code or a common other name means (any case); undefined if none. */
export function findCountry(text: string): Country | undefined {
  return BY_ANY_NAME.get(normalise(text));
}
