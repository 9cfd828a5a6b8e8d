// The module of upstream capabilities a self-hosted service does not offer: its routes.
export { createUnavailableModule, type UnavailableModule } from './module.ts';
