// Where a mention comes from, as independent evidence sees it: the platform, the web domain of a news-like item,
// the web domains a post links to, and whether a domain or source is an official one. Pure; the weights these
// kinds carry are in scoring.ts.

/** Hazard feeds (official records) also arrive as signals. */
export const HAZARD_SOURCES: ReadonlySet<string> = new Set(['usgs', 'environment_agency']);
/** Sources whose items are web pages: the independent origin is the page's domain, not the platform. */
const WEB_SOURCES = /^(news|rss|web|blog)/;

export const isWebSource = (source: string) => WEB_SOURCES.test(source);

/**
 * Link shorteners and the social platforms themselves: a link to them names no independent publisher (a tweet
 * linking a tweet is the same platform; t.co hides where it goes).
 */
const NOT_PUBLISHERS: ReadonlySet<string> = new Set(
  `t.co bit.ly ow.ly tinyurl.com goo.gl buff.ly dlvr.it ift.tt fb.me lnkd.in trib.al is.gd j.mp shar.es
  wp.me tiny.cc rebrand.ly cutt.ly shorturl.at s.id amzn.to youtu.be twitter.com x.com facebook.com fb.com
  instagram.com bsky.app reddit.com redd.it tiktok.com youtube.com t.me threads.net linkedin.com
  pinterest.com tumblr.com twitpic.com instagr.am vine.co foursquare.com 4sq.com path.com twitlonger.com
  mastodon.social news.ycombinator.com`.split(/\s+/),
);

/**
 * Official publishers: government and intergovernmental domains (`.gov`, `.gov.xx`, `.gob.xx`, `.gouv.xx`,
 * `.go.xx`, `.govt.xx`, `.gc.ca`, `.mil`, `.int`, `europa.eu`) and a few disaster-alert and humanitarian
 * services with other names (GDACS, the UN, the Red Cross). Their word is worth more than a news site's.
 */
const OFFICIAL_DOMAIN = new RegExp(
  [
    '(gov|mil|int)',
    String.raw`(gov|gob|gouv|go|govt|gv|government)\.[a-z]{2}`,
    String.raw`(gc\.ca|canada\.ca|europa\.eu)`,
    String.raw`(gdacs\.org|redcross\.org|ifrc\.org|un\.org)`,
  ]
    .map((suffix) => String.raw`(^|\.)${suffix}$`)
    .join('|'),
);

export const isOfficialDomain = (domain: string) => OFFICIAL_DOMAIN.test(domain);

const hostOf = (url: string): string | null => {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/^www\./, '');
    return host.includes('.') ? host : null;
  } catch {
    return null;
  }
};

/** The independent origin of a mention: the web domain for news-like sources with a URL, else the platform. */
export function originOf(source: string, url: string | null): string {
  if (url && isWebSource(source)) return hostOf(url) ?? source;
  return source;
}

const LINK = /\bhttps?:\/\/[^\s<>"')\]]+/gi;
const MAX_LINKS = 10;

/** Web domains a text links to, publishers only (no shorteners, no social platforms), at most 10. */
export function linkedDomains(text: string): string[] {
  const out = new Set<string>();
  for (const match of text.matchAll(LINK)) {
    const host = hostOf(match[0]);
    if (host && !NOT_PUBLISHERS.has(host)) out.add(host);
    if (out.size >= MAX_LINKS) break;
  }
  return [...out];
}
