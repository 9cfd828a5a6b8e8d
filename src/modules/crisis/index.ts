// The crisis module's public entry: what other modules may use from it.
export {
  CRISIS_EVENT_ESCALATED,
  CRISIS_EVENT_OPENED,
  CRISIS_EVENT_RESOLVED,
  type CrisisDomainEventData,
  type CrisisEvents,
} from './events.ts';
export type { HazardObservation, HazardSink } from './hazards.ts';
export { type CrisisModule, createCrisisModule } from './module.ts';
// The hazard adapters' severity mappings, kept beside the severity_basis text that describes them.
export { FRESHNESS_WINDOWS_MS, floodSeverity, usgsSeverity } from './scoring.ts';
export { CrisisService } from './service.ts';
