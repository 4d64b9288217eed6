/** /admin/callback: where GitHub sends the editor back; the token goes to the form (_oauth.ts). */
import type { APIRoute } from 'astro';
import { finishLogin, oauthSettingsFromEnv } from './_oauth.ts';

export const prerender = false;

export const GET: APIRoute = ({ request, site }) => finishLogin(request, site!, oauthSettingsFromEnv());
