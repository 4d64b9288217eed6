/** Display names for the ids a review refers to. */
import type { Business } from './schema.ts';

export interface DisplayNames {
  services: Map<string, string>;
  areas: Map<string, string>;
}

export function displayNames(business: Business): DisplayNames {
  return {
    services: new Map(business.services.map((s) => [s.id, s.name])),
    areas: new Map(business.service_areas.map((a) => [a.id, a.name])),
  };
}

/** How platforms spell their own names; a source not listed is shown as written. */
const PLATFORMS: Readonly<Record<string, string>> = {
  google: 'Google',
  trustpilot: 'Trustpilot',
  yelp: 'Yelp',
  facebook: 'Facebook',
  nextdoor: 'Nextdoor',
  angi: 'Angi',
  houzz: 'Houzz',
  bbb: 'BBB',
};

/** The display name of a review's source: "google" → "Google". */
export function sourceName(source: string): string {
  return PLATFORMS[source.toLowerCase()] ?? source;
}
