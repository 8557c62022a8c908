/**
 * The post-login redirect rule (accounts doc §2): a `redirect` query parameter is followed only when it
 * points to this origin and to an allowed place; anything else gives the fallback. The result is always a
 * path on this origin (`/…`), never an absolute URL, so it cannot send anyone elsewhere.
 */

/** accounts §2 "Allowed names": route names; a path is allowed when its first segment (under /app/ or at the top) is one. */
export const redirectAllowedNames = [
  'affiliates',
  'audio-native',
  'history',
  'request-alpha-access',
  'subscription',
  'usage',
  'speech-synthesis',
  'dubs',
  'redirect',
] as const;

const SEGMENT = '[A-Za-z0-9._~-]{1,200}';

/** accounts §2 "Allowed shapes"; `query` lists the only query keys kept for that shape. */
const redirectAllowedShapes: readonly { pattern: RegExp; query?: readonly string[] }[] = [
  { pattern: new RegExp(`^/v1/dubs/${SEGMENT}$`) },
  { pattern: new RegExp(`^/v1/projects/${SEGMENT}$`) },
  { pattern: new RegExp(`^/app/voice-lab/share/${SEGMENT}/${SEGMENT}$`) },
  {
    pattern: /^\/app\/integrations\/vercel\/callback$/,
    query: ['code', 'configurationId', 'next', 'source', 'teamId'],
  },
  { pattern: new RegExp(`^/sound-effects/${SEGMENT}$`) },
  { pattern: new RegExp(`^/app/studio/${SEGMENT}$`) },
];

const namedPath = new RegExp(`^(?:/app)?/(${SEGMENT})(?:/${SEGMENT})*/?$`);

export interface RedirectOptions {
  /** The page's own origin, e.g. `https://parla.example.com`. */
  origin: string;
  /** Where to go when the parameter is missing or not allowed. */
  fallback: string;
  /**
   * Further exact paths that are allowed (accounts §2: "Two further route tables are also allowed; their
   * values are not shown" — the web passes its own route table).
   */
  extraPaths?: readonly string[];
}

/** The path to go to after sign-in for a `redirect` parameter (accounts §2, §5 "Redirect parameter"). */
export function resolvePostLoginRedirect(raw: string | null | undefined, options: RedirectOptions): string {
  if (!raw) return options.fallback;
  let url: URL;
  let origin: string;
  try {
    origin = new URL(options.origin).origin;
    // The WHATWG parser is what the browser will use to follow the result, so it decides what the
    // string means: "//host", "/\host", tabs and newlines inside, "javascript:" all end up off-origin.
    url = new URL(raw, `${origin}/`);
  } catch {
    return options.fallback;
  }
  if (url.origin !== origin || url.username || url.password) return options.fallback;

  const path = url.pathname;
  const shape = redirectAllowedShapes.find((s) => s.pattern.test(path));
  if (shape?.query) {
    const kept = new URLSearchParams();
    for (const key of shape.query) for (const value of url.searchParams.getAll(key)) kept.append(key, value);
    const search = kept.toString();
    return search ? `${path}?${search}` : path;
  }
  const name = namedPath.exec(path)?.[1];
  const allowed =
    shape !== undefined ||
    (name !== undefined && (redirectAllowedNames as readonly string[]).includes(name)) ||
    (options.extraPaths?.includes(path) ?? false);
  return allowed ? `${path}${url.search}${url.hash}` : options.fallback;
}

/**
 * A link's path on this origin, or undefined when it leads elsewhere or does not parse. For the
 * account-action `continueUrl`, which any origin-relative page may use but which must never leave the site.
 * The WHATWG parser decides, as the browser will (`//evil`, `/\evil`, tabs and `javascript:` all fail).
 */
export function toSameOriginPath(raw: string | null | undefined, origin: string): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(origin).origin) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
