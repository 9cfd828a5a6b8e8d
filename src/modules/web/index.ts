// The web module's public entry: the dashboard served at `/`.
export { createWebModule, type WebModule } from './module.ts';
export { webRoutes } from './routes.ts';
