/** /admin/auth: the start of the form's GitHub login (_oauth.ts). Answered on request, on every host. */
import type { APIRoute } from 'astro';
import { beginLogin, oauthSettingsFromEnv } from './_oauth.ts';

export const prerender = false;

export const GET: APIRoute = ({ request, site }) => beginLogin(request, site!, oauthSettingsFromEnv());
