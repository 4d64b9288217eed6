/**
 * The Decap CMS configuration of the editors' web form at /admin, generated from
 * the same zod schema the loader validates with (`reviewFrontmatter`) and the
 * choices in business.yaml: the form cannot drift from what a build accepts.
 *
 * The schema is walked through its JSON Schema: field order, types, bounds,
 * which fields are required and which may be left out all come from there. What
 * the schema cannot say (labels, hints, which business.yaml list a field picks
 * from) is presentation, in PRESENTATION below, keyed by field name.
 *
 * Plain TypeScript, no Astro imports: the /admin endpoints, `npm run cms` and
 * the tests share it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { z } from 'zod';
import { business } from '../reviews/schema.ts';
import { contentDir, siteUrl } from '../config/site.ts';
import { reviewFrontmatter, type BusinessChoices } from './editor-schema.ts';
import { parseYaml } from './split-frontmatter.ts';
import { BUSINESS_FILE, REVIEWS_DIR } from './load.ts';

/** Where decap-server listens when `npm run cms` is not told otherwise. */
export const DEFAULT_LOCAL_BACKEND_PORT = 8081;

/** A Decap field (a subset of its options: the ones this form uses). */
export interface CmsField {
  name: string;
  label: string;
  widget: 'datetime' | 'number' | 'string' | 'text' | 'boolean' | 'select' | 'object';
  required?: boolean;
  hint?: string;
  default?: unknown;
  // datetime
  format?: string;
  date_format?: string;
  time_format?: string | false;
  picker_utc?: boolean;
  // number
  value_type?: 'int';
  min?: number;
  max?: number;
  step?: number;
  // select
  options?: Array<{ label: string; value: string }>;
  multiple?: boolean;
  // object
  fields?: CmsField[];
  collapsed?: boolean;
}

/** What the schema cannot say about a field: its label, a hint, the business.yaml list it picks from. */
interface Presentation {
  label?: string;
  hint?: string;
  /** The business.yaml list the values come from; technicians are written by name, the others by id. */
  choices?: 'technicians' | 'services' | 'service_areas';
  /** The form's default where the schema has none. */
  default?: unknown;
  /** `text` for a string that may run to several lines. */
  widget?: 'text';
  fields?: Record<string, Presentation>;
}

const PRESENTATION: Record<string, Presentation> = {
  date: { label: 'Date', hint: 'The day the customer wrote the review.' },
  updated: {
    label: 'Updated',
    hint: 'When a reply, a correction or a late publication happened, in UTC. Leave empty unless you are changing an older review.',
  },
  rating: { label: 'Rating', hint: 'Stars, a whole number from 1 to 5.' },
  title: { label: 'Title', hint: 'A short headline, if the customer gave one.' },
  author: {
    label: 'Customer',
    hint: 'As it should appear publicly, e.g. "Linda K.". It also names the file: date-customer.md.',
  },
  technicians: { label: 'Technicians', hint: 'Who did the job (as named in the review).', choices: 'technicians' },
  services: { label: 'Services', hint: 'At least one.', choices: 'services' },
  service_area: { label: 'Service area', choices: 'service_areas' },
  source: { label: 'Source', hint: 'Where the customer wrote it: google, yelp, nextdoor, website, email…', default: 'google' },
  source_id: { label: 'Platform review id', hint: 'Filled in by `npm run import`: the review’s id on its platform, which keeps a later import from doubling it. Leave it as it is.' },
  source_url: { label: 'Original review link', hint: 'Where the review can be read on its platform, if it has a link (filled in by `npm run import`).' },
  verified: { label: 'Verified (published)', hint: 'Only verified reviews are published. Untick to keep a review off the site.', default: true },
  response: {
    label: 'Our reply',
    hint: 'The business’s public reply, if there is one: then fill in both its date and its text; otherwise leave both empty.',
    fields: {
      date: { label: 'Reply date', hint: 'Needed with a reply.' },
      text: { label: 'Reply text', hint: 'Plain text. Needed with a reply.', widget: 'text' },
    },
  },
};

/** The review text below the frontmatter: `text`, not `markdown`, which escapes characters such as [ and *. */
const BODY_FIELD: CmsField = {
  name: 'body',
  label: 'Review text',
  widget: 'text',
  required: true,
  hint: 'Exactly as the customer wrote it. Plain text; leave an empty line between paragraphs.',
};

type JsonSchema = z.core.JSONSchema.JSONSchema;

/** The review form's fields, in file order: the frontmatter as the schema has it, then the text. */
export function reviewFields(choices: BusinessChoices): CmsField[] {
  const schema = z.toJSONSchema(reviewFrontmatter, { io: 'input', unrepresentable: 'any' });
  return [...objectFields(schema, PRESENTATION, choices, ''), BODY_FIELD];
}

/**
 * Fields of an object. In an optional object (the reply) none is required by the
 * form: Decap would otherwise refuse a reply touched then emptied. That the
 * reply has both its parts once it has one is checked before saving, by the
 * schema itself (src/pages/admin/_form.ts).
 */
function objectFields(schema: JsonSchema, presentation: Record<string, Presentation>, choices: BusinessChoices, path: string, optional = false): CmsField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) =>
    fieldFor(name, property as JsonSchema, !optional && required.has(name), presentation[name] ?? {}, choices, `${path}${name}`),
  );
}

function fieldFor(name: string, raw: JsonSchema, listedRequired: boolean, look: Presentation, choices: BusinessChoices, path: string): CmsField {
  const { schema, nullable } = simplest(raw);
  const base = {
    name,
    label: look.label ?? name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
    required: listedRequired && !nullable,
    ...(look.hint ? { hint: look.hint } : {}),
  };
  const fallback = look.default ?? schema.default;
  const withDefault = <T extends CmsField>(field: T): T => (fallback === undefined ? field : { ...field, default: fallback });

  if (look.choices) {
    const options = choiceOptions(choices, look.choices);
    return withDefault({ ...base, widget: 'select', ...(schema.type === 'array' ? { multiple: true } : {}), options });
  }
  switch (schema.type) {
    case 'string':
      if (schema.format === 'date') {
        return withDefault({ ...base, widget: 'datetime', format: 'YYYY-MM-DD', date_format: 'YYYY-MM-DD', time_format: false, picker_utc: true });
      }
      if (schema.format === 'date-time') {
        // The schema's instants are UTC with second precision: 2025-05-23T18:05:00Z.
        return withDefault({ ...base, widget: 'datetime', format: 'YYYY-MM-DDTHH:mm:ss[Z]', date_format: 'YYYY-MM-DD', time_format: 'HH:mm', picker_utc: true });
      }
      return withDefault({ ...base, widget: look.widget ?? 'string' });
    case 'integer':
      return withDefault({ ...base, widget: 'number', value_type: 'int', min: schema.minimum, max: schema.maximum, step: 1 });
    case 'boolean':
      return withDefault({ ...base, widget: 'boolean' });
    case 'object':
      return { ...base, widget: 'object', collapsed: false, fields: objectFields(schema, look.fields ?? {}, choices, `${path}.`, !base.required) };
    default:
      throw new Error(`cms-config: no form widget for ${path} (JSON Schema type ${JSON.stringify(schema.type)})`);
  }
}

/**
 * A field the schema allows in several spellings (`author: "Linda K."` or
 * `author: { name: "Linda K." }`) is offered in its simplest one, the first plain
 * string; `null` alternatives make the field optional.
 */
function simplest(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  if (!schema.anyOf) return { schema, nullable: false };
  const branches = schema.anyOf.filter((branch) => branch.type !== 'null');
  const nullable = branches.length < schema.anyOf.length;
  const chosen = branches.find((branch) => branch.type === 'string') ?? branches[0]!;
  return { schema: { ...chosen, ...(schema.default !== undefined ? { default: schema.default } : {}) }, nullable };
}

function choiceOptions(choices: BusinessChoices, list: NonNullable<Presentation['choices']>): Array<{ label: string; value: string }> {
  // Technicians are written by full name, as the published record names them; services and areas by id.
  if (list === 'technicians') return choices.technicians.map((t) => ({ label: t.name, value: t.name }));
  return choices[list].map((entry) => ({ label: entry.name, value: entry.id }));
}

/** The business's lists, read from business.yaml the way the loader reads it. */
export function readChoices(dir: string = contentDir()): BusinessChoices {
  const file = join(dir, BUSINESS_FILE);
  const parsed = business.safeParse(parseYaml(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not valid (run the build to see every problem): ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

export const NETLIFY_IDENTITY_WIDGET = 'https://identity.netlify.com/v1/netlify-identity-widget.js';

/**
 * Where the form saves in production, and the local decap-server, from build-time environment variables:
 * - `CMS_BACKEND`: `git-gateway` (default: Netlify Identity + Git Gateway) or `github`.
 * - `CMS_BRANCH`: the branch the form commits to (default `main`).
 * - `CMS_REPO`: `owner/name`, required with `github`.
 * - `CMS_BASE_URL`, `CMS_AUTH_ENDPOINT`: `github` only, the OAuth server (default: Netlify's, https://api.netlify.com).
 * - `CMS_LOCAL_BACKEND`: the decap-server API the form uses when opened on localhost
 *   (`npm run cms` sets it; `astro dev` defaults to `http://localhost:8081/api/v1`;
 *   a production build leaves it out unless set; `false` leaves it out).
 * - `CMS_IDENTITY_WIDGET`: `true`/`false`, Netlify's Identity widget on /admin (from
 *   identity.netlify.com): with git-gateway it is what lets an invited editor set a
 *   password. Default: `true` with git-gateway in a Netlify build (NETLIFY=true), off
 *   elsewhere, where /admin then loads nothing from another host.
 */
export function cmsSettingsFromEnv(env: Record<string, string | undefined> = process.env, { dev = false }: { dev?: boolean } = {}) {
  const name = env.CMS_BACKEND?.trim() || 'git-gateway';
  const branch = env.CMS_BRANCH?.trim() || 'main';
  let backend: Record<string, string>;
  if (name === 'git-gateway') {
    backend = { name, branch };
  } else if (name === 'github') {
    const repo = env.CMS_REPO?.trim();
    if (!repo || !/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new Error(`CMS_BACKEND=github needs CMS_REPO=owner/name, got ${JSON.stringify(repo ?? '')}`);
    backend = { name, repo, branch };
    if (env.CMS_BASE_URL?.trim()) backend.base_url = checkedUrl('CMS_BASE_URL', env.CMS_BASE_URL.trim());
    if (env.CMS_AUTH_ENDPOINT?.trim()) backend.auth_endpoint = env.CMS_AUTH_ENDPOINT.trim().replace(/^\/+/, '');
  } else {
    throw new Error(`CMS_BACKEND must be git-gateway or github, got "${name}"`);
  }
  const local = env.CMS_LOCAL_BACKEND?.trim();
  // A deployed form has no local backend to talk to: only a dev server, or a build that asks, names one.
  const localBackend =
    local === 'false' || local === 'off' || (!local && !dev)
      ? false
      : { url: checkedUrl('CMS_LOCAL_BACKEND', local || `http://localhost:${DEFAULT_LOCAL_BACKEND_PORT}/api/v1`) };
  const widget = env.CMS_IDENTITY_WIDGET?.trim();
  if (widget && widget !== 'true' && widget !== 'false') throw new Error(`CMS_IDENTITY_WIDGET must be true or false, got "${widget}"`);
  const identityWidget = widget ? widget === 'true' : name === 'git-gateway' && env.NETLIFY === 'true';
  return { backend, localBackend, siteUrl: siteUrl(env), identityWidget };
}

function checkedUrl(variable: string, value: string): string {
  const url = URL.parse(value);
  if (!url) throw new Error(`${variable} must be an absolute http(s) URL, got "${value}"`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${variable} must be http or https, got "${value}"`);
  return value.replace(/\/+$/, '');
}

export type CmsSettings = ReturnType<typeof cmsSettingsFromEnv>;

/** config.yml as served at /admin/config.yml: the whole Decap configuration. */
export function cmsConfigYaml(choices: BusinessChoices, settings: CmsSettings): string {
  const config = {
    backend: {
      ...settings.backend,
      commit_messages: {
        create: 'Add review {{slug}} (web form)',
        update: 'Edit review {{slug}} (web form)',
        delete: 'Delete review {{slug}} (web form)',
        uploadMedia: 'Upload {{path}}',
        deleteMedia: 'Delete {{path}}',
      },
    },
    ...(settings.localBackend ? { local_backend: settings.localBackend } : {}),
    site_url: settings.siteUrl,
    display_url: settings.siteUrl,
    locale: 'en',
    // Reviews have no pictures; Decap requires a media folder all the same. Nothing reads it.
    media_folder: 'content/uploads',
    public_folder: '/uploads',
    // File names are review ids: lowercase ASCII letters, digits and single hyphens (REVIEW_ID).
    slug: { encoding: 'ascii', clean_accents: true, sanitize_replacement: '-' },
    collections: [
      {
        name: 'reviews',
        label: 'Reviews',
        label_singular: 'review',
        description: 'One file per review: content/reviews/<date>-<customer>.md. Saving writes the file; a build publishes it.',
        // As seen from the repository root: what the Git backends and decap-server write to.
        folder: `content/${REVIEWS_DIR}`,
        extension: 'md',
        format: 'frontmatter',
        create: true,
        // `title` is optional, so the customer's name identifies an entry and names its file.
        identifier_field: 'author',
        slug: '{{fields.date}}-{{slug}}',
        summary: '{{date}} · {{author}} · {{rating}}/5',
        // Newest first, as on the site.
        sortable_fields: [{ field: 'date', label: 'Date', default_sort: 'desc' }, 'rating', 'author'],
        editor: { preview: false },
        fields: reviewFields(choices),
      },
    ],
  };
  return `# Generated from src/lib/content/editor-schema.ts and content/business.yaml by src/lib/content/cms-config.ts: edit those, not this.\n${stringify(config, { lineWidth: 0 })}`;
}
