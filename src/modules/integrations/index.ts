// The integrations module's public entry: its factory, and what code outside the module uses.
export type { AdsDeps } from './ads/service.ts';
export { chatLink, escapeChat } from './chat/messages.ts';
export { createIntegrationsModule, type Integrations, type IntegrationsModule } from './module.ts';
export { PAGE_CSP } from './pages.ts';
export { WorkflowService } from './workflow/service.ts';
