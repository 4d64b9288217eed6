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
