// RSS 2.0 and Atom 1.0 feeds. Conditional GETs (ETag / Last-Modified) keep unchanged feeds cheap, and the
// cursor remembers the newest item time so items already handed over are not sent again.
import { XMLParser } from 'fast-xml-parser';
import {
  clampTime,
  cleanKeywords,
  collapse,
  decodeXmlEntities,
  ensureOk,
  externalId,
  hostOf,
  htmlToText,
  httpGet,
  httpUrl,
  LIMITS,
  parseSeen,
  type SeenUpTo,
  sha256,
  shortText,
  signalText,
  unseenSince,
} from './text.ts';
import { type PollingSource, type SourceContext, SourceError, type SourceSignal } from './types.ts';

interface RssSourceOptions {
  /** Display name; the feed's host when null. */
  name: string | null;
  url: string;
  /** Position among the configured feeds: 0 → id `rss`, n → `rss-${n + 1}`. */
  index: number;
  intervalMs: number;
}

interface FeedItem {
  id: string | null;
  link: string | null;
  title: string | null;
  text: string | null;
  author: string | null;
  /** Epoch ms, or null when the item carries no usable date. */
  date: number | null;
  categories: string[];
}

interface Feed {
  title: string | null;
  items: FeedItem[];
}

interface RssCursor extends Partial<SeenUpTo> {
  etag?: string;
  modified?: string;
}

const ACCEPT = 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1';

// Only the five XML entities and numeric references are expanded: entities declared in a DOCTYPE are
// ignored (no "billion laughs"), and nothing external is ever fetched.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  htmlEntities: false,
  entityDecoder: {
    setExternalEntities: () => {},
    addInputEntities: () => {},
    reset: () => {},
    setXmlVersion: () => {},
    decode: decodeXmlEntities,
  },
  isArray: (name) => name === 'item' || name === 'entry' || name === 'category' || name === 'link',
  // Atom text constructs may be inline XHTML: kept raw so markup is stripped in document order.
  stopNodes: ['feed.title', 'feed.entry.title', 'feed.entry.content', 'feed.entry.summary'],
});

type XmlObject = Record<string, unknown>;

const isObject = (node: unknown): node is XmlObject => typeof node === 'object' && node !== null;

const first = (node: unknown): unknown => (Array.isArray(node) ? node[0] : node);

const list = (node: unknown): unknown[] => (node === undefined || node === null ? [] : [node].flat());

/** The text of an element: its value, or its `#text` when it has attributes or children. */
function nodeText(node: unknown): string | null {
  const value = first(node);
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (isObject(value)) return nodeText(value['#text']);
  return null;
}

function attr(node: unknown, name: string): string | null {
  const value = first(node);
  return isObject(value) && typeof value[`@_${name}`] === 'string' ? (value[`@_${name}`] as string) : null;
}

function parseDate(raw: string | null): number | null {
  if (raw === null) return null;
  const ms = Date.parse(raw.trim());
  return Number.isFinite(ms) ? ms : null;
}

/** Raw (stop-node) XML text: CDATA kept verbatim, the rest entity-decoded. */
function rawXmlText(raw: string): string {
  return raw
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) => (part.startsWith('<![CDATA[') ? part.slice(9, -3) : decodeXmlEntities(part)))
    .join('');
}

/** Atom text constructs (raw stop nodes): type text, html (escaped markup) or xhtml (inline markup). */
function atomText(node: unknown): string | null {
  const raw = nodeText(node);
  if (raw === null) return null;
  const type = attr(node, 'type') ?? 'text';
  if (type === 'xhtml') return htmlToText(raw);
  return type === 'html' ? htmlToText(rawXmlText(raw)) : collapse(rawXmlText(raw));
}

/** RSS `author` is usually `email (Name)`: keep the name. */
function rssAuthor(raw: string | null): string | null {
  if (raw === null) return null;
  const named = /^\s*\S+@\S+\s*\((.+)\)\s*$/.exec(raw);
  return named ? named[1] : raw;
}

function rssItem(item: XmlObject): FeedItem {
  const description = nodeText(item.description);
  const content = nodeText(item['content:encoded']);
  return {
    id: nodeText(item.guid),
    // A guid is a permalink unless it says otherwise.
    link: nodeText(item.link) ?? (attr(item.guid, 'isPermaLink') === 'false' ? null : nodeText(item.guid)),
    // RSS titles often carry escaped markup or doubly escaped references.
    title: htmlToText(nodeText(item.title) ?? ''),
    text: htmlToText(description ?? '') || htmlToText(content ?? ''),
    author: rssAuthor(nodeText(item.author)) ?? nodeText(item['dc:creator']),
    date: parseDate(nodeText(item.pubDate) ?? nodeText(item['dc:date'])),
    categories: list(item.category).flatMap((c) => htmlToText(nodeText(c) ?? '')),
  };
}

function atomLink(links: unknown): string | null {
  const all = list(links);
  const alternate = all.find((link) => (attr(link, 'rel') ?? 'alternate') === 'alternate');
  return attr(alternate ?? all[0], 'href');
}

function atomEntry(entry: XmlObject, feed: XmlObject): FeedItem {
  const author = (node: unknown) => nodeText(isObject(first(node)) ? (first(node) as XmlObject).name : null);
  return {
    id: nodeText(entry.id),
    link: atomLink(entry.link),
    title: atomText(entry.title),
    text: atomText(entry.summary) || atomText(entry.content),
    author: author(entry.author) ?? author(feed.author),
    // An edit moves `updated`, not when the story appeared.
    date: parseDate(nodeText(entry.published) ?? nodeText(entry.updated)),
    categories: list(entry.category).flatMap((c) => attr(c, 'label') ?? attr(c, 'term') ?? []),
  };
}

/** Parses RSS 2.0 or Atom 1.0 (also used by the release feeds in src/modules/content/releases). */
export function parseFeed(xml: string, url: string): Feed {
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch {
    throw new SourceError(`${hostOf(url)} sent a feed that is not valid XML`);
  }
  if (isObject(doc) && isObject(doc.rss) && isObject(doc.rss.channel)) {
    const channel = doc.rss.channel;
    return {
      title: htmlToText(nodeText(channel.title) ?? ''),
      items: list(channel.item).filter(isObject).map(rssItem),
    };
  }
  if (isObject(doc) && isObject(doc.feed)) {
    const feed = doc.feed;
    return {
      title: atomText(feed.title),
      items: list(feed.entry)
        .filter(isObject)
        .map((entry) => atomEntry(entry, feed)),
    };
  }
  throw new SourceError(`${hostOf(url)} sent neither an RSS 2.0 nor an Atom 1.0 feed`);
}

function toSignal(item: FeedItem, now: number, feedUrl: string): SourceSignal | null {
  const title = shortText(item.title, LIMITS.title);
  const text = signalText(item.text) ?? signalText(title);
  if (text === null) return null;
  const url = httpUrl(item.link, feedUrl);
  const dateKey = item.date === null ? '' : new Date(item.date).toISOString();
  const id = shortText(item.id, Number.MAX_SAFE_INTEGER) ?? url ?? sha256(`${title ?? text}\n${dateKey}`);
  return {
    source: 'news',
    external_id: externalId(id),
    text,
    title,
    url,
    author: shortText(item.author, LIMITS.author),
    observed_at: clampTime(item.date, now),
    category: shortText(item.categories[0], 100),
    keywords: cleanKeywords(item.categories),
  };
}

function parseCursor(raw: string | null): { etag?: string; modified?: string; seen: SeenUpTo | null } {
  if (raw === null) return { seen: null };
  try {
    const cursor = JSON.parse(raw) as RssCursor;
    return {
      etag: typeof cursor.etag === 'string' ? cursor.etag : undefined,
      modified: typeof cursor.modified === 'string' ? cursor.modified : undefined,
      seen: parseSeen(cursor),
    };
  } catch {
    return { seen: null };
  }
}

// Validators longer than this are not worth keeping in a cursor meant to stay small.
const MAX_VALIDATOR = 512;

function validator(headers: Headers, name: string): string | undefined {
  const value = headers.get(name);
  return value !== null && value.length <= MAX_VALIDATOR ? value : undefined;
}

export function rssSource(options: RssSourceOptions): PollingSource {
  const { url } = options;
  const source: PollingSource = {
    kind: 'poll',
    id: options.index === 0 ? 'rss' : `rss-${options.index + 1}`,
    name: options.name ?? hostOf(url),
    // Replaced by the feed's own title once it has been read.
    attribution: options.name ?? hostOf(url),
    // A feed states no machine-readable terms, so the feed itself is where its publisher's terms apply.
    licence_url: url,
    coverage: `Items of the feed at ${url}, under its publisher’s terms.`,
    intervalMs: options.intervalMs,
    async poll(context: SourceContext) {
      const previous = parseCursor(context.cursor);
      const headers: Record<string, string> = { accept: ACCEPT };
      if (previous.etag) headers['if-none-match'] = previous.etag;
      if (previous.modified) headers['if-modified-since'] = previous.modified;
      const answer = await httpGet(context, url, headers);
      if (answer.status === 304) return { signals: [], cursor: context.cursor };
      ensureOk(answer, url);
      const feed = parseFeed(answer.body, url);
      const feedTitle = shortText(feed.title, LIMITS.title);
      if (feedTitle) source.attribution = feedTitle;

      const items = feed.items.flatMap((item) => {
        const signal = toSignal(item, context.now, url);
        return signal === null ? [] : [{ signal, time: item.date }];
      });
      const { signals, seen } = unseenSince(previous.seen, items, context.now);
      const cursor: RssCursor = {
        etag: validator(answer.headers, 'etag'),
        modified: validator(answer.headers, 'last-modified'),
        ...seen,
      };
      return { signals, cursor: JSON.stringify(cursor) };
    },
  };
  return source;
}
