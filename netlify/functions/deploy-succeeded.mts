// Netlify event function, run after each successful deploy: publish to WebSub
// subscribers what the deploy changed. The logic: src/hosts/netlify/functions.ts.
import type { Context } from '@netlify/functions';
import { deploySucceeded } from '../../src/hosts/netlify/functions.ts';

export default (request: Request, context: Context) => deploySucceeded(request, context);
