// The crisis module's public entry: what other modules may use from it.
export {
  CRISIS_EVENT_ESCALATED,
  CRISIS_EVENT_OPENED,
  CRISIS_EVENT_RESOLVED,
  type CrisisDomainEventData,
} from './events.ts';
export type { HazardObservation, HazardSink } from './hazards.ts';
// The hazard adapters' severity mappings, kept beside the severity_basis text that describes them.
export { floodSeverity, type Severity, usgsSeverity } from './scoring.ts';
