/**
 * Where a review was collected, as a reader names it: the platform's own
 * spelling ("Google", "Trustpilot"), or the business's own channels (this
 * site, email, phone). Reviews carry a source id (`google`, `website`, …); an
 * id not listed here is shown as it is written, as a platform.
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

/** The business's own channels: the review was written to the business, not posted on a platform. */
const OWN_CHANNELS: Readonly<Record<string, string>> = {
  website: 'Written here',
  email: 'Sent to the business by email',
  phone: 'Given to the business by phone',
};

export function sourceName(id: string): string {
  const key = id.toLowerCase();
  return Object.hasOwn(SOURCE_NAMES, key) ? SOURCE_NAMES[key]! : id;
}

/** Where a review was written, in words: `platform` is set when it was posted on another site (and may link there). */
export function reviewOrigin(id: string): { words: string; platform?: string } {
  const key = id.toLowerCase();
  if (Object.hasOwn(OWN_CHANNELS, key)) return { words: OWN_CHANNELS[key]! };
  return { words: 'Posted on', platform: sourceName(id) };
}
