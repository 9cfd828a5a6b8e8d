// The content module: the blog, releases (the changelog and release feeds) and the status page, whose
// components beyond the platform's are each signal source, the LLM provider and each release feed.
import type { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import type { Clock } from '../../platform/clock.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { type Module, routes } from '../../platform/module.ts';
import type { SourceRunner } from '../signals/index.ts';
import { blogRoutes } from './blog/routes.ts';
import { BlogService } from './blog/service.ts';
import { BlogStore } from './blog/store.ts';
import { loadChangelog } from './releases/changelog.ts';
import { releaseRoutes } from './releases/routes.ts';
import { feedNames, ReleasesService } from './releases/service.ts';
import { ReleaseFeedStore } from './releases/store.ts';
import { llmCheck, sourceChecks } from './status/checks.ts';
import { statusRoutes } from './status/routes.ts';
import { StatusService } from './status/service.ts';
import { StatusStore } from './status/store.ts';

interface ContentModuleDeps {
  config: Config;
  clock: Clock;
  db: DB;
  redis?: Redis;
  jobs: JobQueue;
  log: { warn(details: object, message: string): void };
  /** The signal sources, each a component of the status page. */
  sources: Pick<SourceRunner, 'sources' | 'list'>;
}

export type ContentModule = Module<
  { status: StatusService; releases: ReleasesService; blog: BlogService },
  'status' | 'blog' | 'releases'
>;

export function createContentModule(deps: ContentModuleDeps): ContentModule {
  const { config, clock, db, log } = deps;
  const status = new StatusService(new StatusStore(db), {
    db,
    redis: deps.redis,
    jobs: deps.jobs,
    clock,
    config,
  });
  for (const [name, check] of sourceChecks(deps.sources)) status.register(name, check);
  const llm = llmCheck(config.llm, clock);
  if (llm) status.register('llm', llm);
  const changelog = loadChangelog();
  if (changelog.error) log.warn({ error: changelog.error }, 'CHANGELOG.md could not be read');
  const releases = new ReleasesService({
    store: new ReleaseFeedStore(db),
    clock,
    changelog: changelog.releases,
    feeds: feedNames(config.feeds.releaseFeeds, status.names()),
    log,
  });
  for (const feed of releases.feeds) status.register(feed.name, () => releases.check(feed.name));
  const blog = new BlogService(new BlogStore(db), clock);
  return {
    api: { status, releases, blog },
    routes: {
      status: routes(statusRoutes, { status }),
      blog: routes(blogRoutes, { blog }),
      releases: routes(releaseRoutes, { releases }),
    },
  };
}
