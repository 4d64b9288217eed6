/**
 * Where a review was collected, as a reader names it: the platform's own
 * spelling ("Google", "Trustpilot"), or words for the business's own channels
 * ("our website"). Reviews carry a source id (`google`, `website`, …); an id
 * not listed here is shown as it is written.
 */
const SOURCE_NAMES: Readonly<Record<string, string>> = {
  google: 'Google',
  yelp: 'Yelp',
  facebook: 'Facebook',
  trustpilot: 'Trustpilot',
  nextdoor: 'Nextdoor',
  bbb: 'BBB',
  angi: 'Angi',
  homeadvisor: 'HomeAdvisor',
  houzz: 'Houzz',
  thumbtack: 'Thumbtack',
  website: 'our website',
  email: 'email',
  phone: 'phone',
};

export function sourceName(id: string): string {
  const key = id.toLowerCase();
  return Object.hasOwn(SOURCE_NAMES, key) ? SOURCE_NAMES[key]! : id;
}
