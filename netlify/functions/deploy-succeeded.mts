// Netlify event function, run after each successful deploy: publish to WebSub
// subscribers what the deploy changed. The logic: src/hosts/netlify/functions.ts.
import { deploySucceeded, type NetlifyContextLike } from '../../src/hosts/netlify/functions.ts';

export default (request: Request, context: NetlifyContextLike) => deploySucceeded(request, context);
