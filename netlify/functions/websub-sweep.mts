// Netlify scheduled function: due WebSub retries and lease expiry, every minute
// (the most often Netlify schedules; see docs/deploy.md). The logic: src/hosts/netlify/functions.ts.
import { scheduledSweep, type NetlifyContextLike } from '../../src/hosts/netlify/functions.ts';

export default (_request: Request, context: NetlifyContextLike) => scheduledSweep(context);

export const config = { schedule: '* * * * *' };
