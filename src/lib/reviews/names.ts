/** Display names for the ids a review refers to, and the technician ids for the names a review gives. */
import type { Business } from './schema.ts';

export interface DisplayNames {
  services: Map<string, string>;
  areas: Map<string, string>;
  /** A technician's id by lower-cased full name or id: reviews name technicians either way. */
  technicianIds: Map<string, string>;
}

export function displayNames(business: Business): DisplayNames {
  return {
    services: new Map(business.services.map((s) => [s.id, s.name])),
    areas: new Map(business.service_areas.map((a) => [a.id, a.name])),
    technicianIds: new Map(
      business.technicians.flatMap((t) => [
        [t.name.toLowerCase(), t.id],
        [t.id.toLowerCase(), t.id],
      ]),
    ),
  };
}
