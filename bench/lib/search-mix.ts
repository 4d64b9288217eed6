/** The search mix of the REST benchmarks, cycled: realistic client queries, from the cheapest to a full-text scan. */
export const SEARCH = '/api/reviews/search';

export const SEARCH_PATHS = [
  SEARCH,
  `${SEARCH}?rating=5`,
  `${SEARCH}?min_rating=4&mentions_service=gutters`,
  `${SEARCH}?query=leak`,
  `${SEARCH}?mentions_technician=Dave%20Kowalski&since=2024-01-01`,
  `${SEARCH}?since=2024-01-01&until=2024-06-30`,
  `${SEARCH}?since=2025-01-01&until=2025-12-31&min_rating=3`,
  `${SEARCH}?limit=100`,
];
