/**
 * The hub's form (W3C WebSub §5.1 and §7), parsed with zod into one of three
 * requests. What is refused here is refused before anything is stored or
 * sent: plain-HTTP or credentialed callbacks, missing, empty, repeated or
 * invalid fields, unknown topics and modes, secrets of 200 bytes or more.
 * Parameters other than `hub.*` ones we know are ignored (§5.1). The schemas
 * depend only on the hub's topics: built once per hub (createHubFormParser).
 */
import { z } from 'zod';
import { toIssues, type Issue } from '../http/issues.ts';
import { checkCallbackSyntax } from './ssrf.ts';
import type { TopicRegistry } from './topic-registry.ts';

const MAX_SECRET_BYTES = 199;
const MAX_CALLBACK_LENGTH = 2048;

export type HubRequest =
  | { mode: 'subscribe'; callback: string; topic: string; leaseSeconds: number | undefined; secret: string | undefined }
  | { mode: 'unsubscribe'; callback: string; topic: string }
  | { mode: 'publish'; topics: string[] };

const KNOWN = ['hub.mode', 'hub.callback', 'hub.topic', 'hub.lease_seconds', 'hub.secret', 'hub.url'] as const;
const encoder = new TextEncoder();

export type HubFormResult = { ok: true; request: HubRequest } | { ok: false; issues: Issue[] };

/** The parser of the hub's form for these topics: its schemas are built here, once. */
export function createHubFormParser(topics: TopicRegistry): (form: URLSearchParams) => HubFormResult {
  const topic = z
    .string({ error: 'hub.topic is required' })
    .min(1, 'hub.topic must not be empty')
    .refine((value) => topics.byUrl(value) !== undefined, {
      message: `hub.topic must be one of this hub's topics: ${topics.all.map((t) => t.url).join(', ')}`,
    });
  const callback = z
    .string({ error: 'hub.callback is required' })
    .min(1, 'hub.callback must not be empty')
    .max(MAX_CALLBACK_LENGTH, `hub.callback may be at most ${MAX_CALLBACK_LENGTH} characters`)
    .superRefine((value, ctx) => {
      const verdict = checkCallbackSyntax(value);
      if (!verdict.ok) ctx.addIssue({ code: 'custom', message: `hub.callback ${verdict.reason}` });
    });
  const subscribe = z.object({
    'hub.mode': z.literal('subscribe'),
    'hub.callback': callback,
    'hub.topic': topic,
    'hub.lease_seconds': z
      .string()
      .regex(/^[0-9]{1,10}$/, 'hub.lease_seconds must be a whole number of seconds')
      .optional(),
    'hub.secret': z
      .string()
      .min(1, 'hub.secret must not be empty (leave it out for unsigned notifications)')
      .refine((value) => encoder.encode(value).length <= MAX_SECRET_BYTES, {
        message: 'hub.secret must be less than 200 bytes',
      })
      .optional(),
  });
  // hub.lease_seconds and hub.secret mean nothing on unsubscribe: ignored, not checked.
  const unsubscribe = z.object({ 'hub.mode': z.literal('unsubscribe'), 'hub.callback': callback, 'hub.topic': topic });

  return (form) => {
    const issues: Issue[] = [];
    const mode = form.get('hub.mode');
    const single: Record<string, string> = {};
    for (const name of KNOWN) {
      const values = form.getAll(name);
      // Publishers may name several topics at once (hub.url / hub.topic, as PubSubHubbub allowed).
      if (values.length > 1 && !(mode === 'publish' && (name === 'hub.url' || name === 'hub.topic'))) {
        issues.push({
          code: 'invalid_value',
          path: [name],
          message: `${name} is given ${values.length} times; give it once`,
        });
      } else if (values.length >= 1) single[name] = values[0]!;
    }
    if (issues.length > 0) return { ok: false, issues };

    if (mode === 'publish') {
      const named = [...form.getAll('hub.topic'), ...form.getAll('hub.url')];
      if (named.length === 0)
        return {
          ok: false,
          issues: [{ code: 'invalid_type', path: ['hub.url'], message: 'hub.url or hub.topic is required to publish' }],
        };
      const unknown = named.filter((value) => topics.byUrl(value) === undefined);
      if (unknown.length > 0) {
        return {
          ok: false,
          issues: unknown.map((value) => ({
            code: 'custom',
            path: [form.getAll('hub.topic').includes(value) ? 'hub.topic' : 'hub.url'],
            message: `not a topic of this hub: ${value.slice(0, 200)}`,
          })),
        };
      }
      return {
        ok: true,
        request: { mode: 'publish', topics: [...new Set(named.map((value) => topics.byUrl(value)!.url))] },
      };
    }
    if (mode !== 'subscribe' && mode !== 'unsubscribe') {
      return {
        ok: false,
        issues: [
          {
            code: 'invalid_value',
            path: ['hub.mode'],
            message:
              mode === null
                ? 'hub.mode is required: subscribe, unsubscribe or publish'
                : 'hub.mode must be subscribe, unsubscribe or publish',
          },
        ],
      };
    }
    const parsed = (mode === 'subscribe' ? subscribe : unsubscribe).safeParse(single);
    // The messages above already start with the parameter's name, so toIssues leaves them as they are.
    if (!parsed.success) return { ok: false, issues: toIssues(parsed.error) };
    const data = parsed.data as Record<string, string | undefined>;
    const topicUrl = topics.byUrl(data['hub.topic']!)!.url;
    if (mode === 'unsubscribe')
      return { ok: true, request: { mode, callback: stripFragment(data['hub.callback']!), topic: topicUrl } };
    return {
      ok: true,
      request: {
        mode,
        callback: stripFragment(data['hub.callback']!),
        topic: topicUrl,
        leaseSeconds: data['hub.lease_seconds'] === undefined ? undefined : Number(data['hub.lease_seconds']),
        secret: data['hub.secret'],
      },
    };
  };
}

/** A fragment is never sent over HTTP; keep the callback as it will be requested. */
const stripFragment = (callback: string): string => callback.split('#', 1)[0]!;
