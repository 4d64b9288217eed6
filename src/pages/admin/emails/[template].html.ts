/**
 * Netlify Identity email templates (git-gateway backend): the invitation and
 * password-recovery links lead to /admin, where the Identity widget takes the
 * token, instead of the site's home page, which loads no script. Set their
 * paths in Netlify (docs/editing.md): /admin/emails/invitation.html and
 * /admin/emails/recovery.html. `{{ .SiteURL }}` and `{{ .Token }}` are filled
 * in by Netlify.
 */
import type { APIRoute, GetStaticPaths } from 'astro';

export const prerender = true;

const TEMPLATES = {
  invitation: {
    subject: 'You are invited to edit the reviews',
    text: 'You have been invited to add and edit reviews on {{ .SiteURL }}.',
    link: '{{ .SiteURL }}/admin/#invite_token={{ .Token }}',
    action: 'Accept the invitation and choose a password',
  },
  recovery: {
    subject: 'Reset your password',
    text: 'Someone asked to reset the password of your reviews editor account on {{ .SiteURL }}. If it was not you, ignore this email.',
    link: '{{ .SiteURL }}/admin/#recovery_token={{ .Token }}',
    action: 'Choose a new password',
  },
} as const;

export const getStaticPaths = (() =>
  Object.keys(TEMPLATES).map((template) => ({ params: { template } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ params }) => {
  const t = TEMPLATES[params.template as keyof typeof TEMPLATES];
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${t.subject}</title></head>
<body><h2>${t.subject}</h2><p>${t.text}</p><p><a href="${t.link}">${t.action}</a></p></body></html>
`;
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
};
