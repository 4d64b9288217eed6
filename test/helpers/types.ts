/** Shapes of the site's data as the tests read it. */

/** A review in reviews.json (and in the search API's answers). */
export interface Review {
  id: string;
  date: string;
  updated: string;
  rating: number;
  title?: string;
  text: string;
  technicians: string[];
  services: string[];
}
