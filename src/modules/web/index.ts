// The web module's public entry: the dashboard served at `/`.
export { webRoutes } from './routes.ts';
