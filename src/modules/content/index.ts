// The content module's public entry (blog, releases, status page): what the composition root, the CLI and the
// app use from it.
export { importPosts, markdownFiles } from './blog/import.ts';
export { blogRoutes } from './blog/routes.ts';
export { BlogService } from './blog/service.ts';
export { BlogStore } from './blog/store.ts';
export { loadChangelog } from './releases/changelog.ts';
export { releaseRoutes } from './releases/routes.ts';
export { feedNames, ReleasesService } from './releases/service.ts';
export { ReleaseFeedStore } from './releases/store.ts';
export { backgroundCheck, llmCheck, sourceChecks } from './status/checks.ts';
export { statusRoutes } from './status/routes.ts';
export { StatusService } from './status/service.ts';
export { StatusStore } from './status/store.ts';
