// The content module's public entry (blog, releases, status page): what the composition root, the CLI and the
// app use from it.
export { importPosts, markdownFiles } from './blog/import.ts';
export { BlogService } from './blog/service.ts';
export { BlogStore } from './blog/store.ts';
export { type ContentModule, createContentModule } from './module.ts';
export { ReleasesService } from './releases/service.ts';
export { ReleaseFeedStore } from './releases/store.ts';
export { backgroundCheck } from './status/checks.ts';
export { StatusService } from './status/service.ts';
