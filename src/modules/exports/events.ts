// The domain events the exports module records when a run ends (for the notification feed).
export const EXPORT_RUN_FINISHED = 'export.run.finished';
export const EXPORT_RUN_FAILED = 'export.run.failed';

export interface ExportRunEventData {
  user_id: number;
  /** Null when the configuration was deleted before the run ended. */
  config_id: number | null;
  history_id: number;
  destination: string;
  row_count: number | null;
  error_message: string | null;
}

export interface ExportEvents {
  [EXPORT_RUN_FINISHED]: ExportRunEventData;
  [EXPORT_RUN_FAILED]: ExportRunEventData;
}
