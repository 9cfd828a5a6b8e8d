// The sources named by SOURCES, built from configuration.
import type { Config } from '../../../config.ts';
import { ConfigError } from '../../../config.ts';
import type { HazardSink } from '../../crisis/index.ts';
import { blueskySource } from './bluesky.ts';
import { demoSource } from './demo.ts';
import { environmentAgencySource } from './environment-agency.ts';
import { hackerNewsSource } from './hackernews.ts';
import { redditSource } from './reddit.ts';
import { rssSource } from './rss.ts';
import type { Source } from './types.ts';
import { usgsSource } from './usgs.ts';

interface SourceHooks {
  /** Receives hazard observations (place, magnitude, severity) that signals cannot hold. */
  hazards?: HazardSink;
}

/** Builds every configured source; `startedAt` anchors the demo simulator's clock. */
export function createSources(config: Config, startedAt: number, hooks: SourceHooks = {}): Source[] {
  const intervalMs = config.sourcePollIntervalSeconds * 1000;
  const feeds = config.feeds;
  const out: Source[] = [];
  for (const id of config.sources) {
    switch (id) {
      case 'demo':
        out.push(demoSource({ seed: config.demo.seed, speed: config.demo.speed, startedAt }));
        break;
      case 'rss':
        feeds.rssFeeds.forEach((feed, index) => {
          out.push(rssSource({ name: feed.name, url: feed.url, index, intervalMs }));
        });
        break;
      case 'hackernews':
        out.push(hackerNewsSource({ baseUrl: feeds.hackernewsBaseUrl, intervalMs }));
        break;
      case 'reddit':
        out.push(
          redditSource({ baseUrl: feeds.redditBaseUrl, subreddits: feeds.redditSubreddits, intervalMs }),
        );
        break;
      case 'bluesky':
        out.push(blueskySource({ url: feeds.blueskyJetstreamUrl }));
        break;
      case 'usgs':
        out.push(usgsSource({ feedUrl: feeds.usgsFeedUrl, intervalMs, hazards: hooks.hazards }));
        break;
      case 'environment_agency':
        out.push(
          environmentAgencySource({
            baseUrl: feeds.environmentAgencyBaseUrl,
            intervalMs,
            hazards: hooks.hazards,
          }),
        );
        break;
      default:
        // loadConfig refuses the rest.
        throw new ConfigError('SOURCES', `source ${id} is not available in this version`);
    }
  }
  return out;
}
