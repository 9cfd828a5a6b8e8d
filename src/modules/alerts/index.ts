// The alerts module's public entry: alert bodies and the severity scale, shared by every module that sends
// alerts (webhooks, the live stream).
export {
  type AlertEvent,
  type AlertEvents,
  alertBody,
  CRISIS_EVENT_TYPES,
  type CrisisData,
  crisisBody,
  derivedNextSteps,
  type LifecycleData,
  lifecycleBody,
  messageId,
  SEVERITIES,
  type Severity,
  severityOfVelocity,
  severityRank,
  TREND_ALERT_EVENT,
  TREND_LIFECYCLE_ALERT_EVENT,
  type VelocityData,
} from './payloads.ts';
