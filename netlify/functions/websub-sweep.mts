// Netlify scheduled function: due WebSub retries and lease expiry, every minute
// (the most often Netlify schedules; see docs/deploy.md). The logic: src/hosts/netlify/functions.ts.
import type { Context } from '@netlify/functions';
import { scheduledSweep } from '../../src/hosts/netlify/functions.ts';

export default (_request: Request, context: Context) => scheduledSweep(context);

export const config = { schedule: '* * * * *' };
