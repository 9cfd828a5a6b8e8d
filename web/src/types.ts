// The API shapes the pages read (the fields they use).

export interface TrendItem {
  id: number;
  title: string;
  volume: number;
  timestamp: string;
  category: string;
  sentiment: string | null;
  sentiment_category: string;
  meta_description: string;
  growth: number | null;
  velocity_score: number;
  velocity_1h: number;
  lifecycle_stage: string;
  overall_trend: string;
  average_velocity: number;
  platforms: Record<string, number>;
}

export interface TrendList {
  trends: TrendItem[];
  total: number;
}

export interface Analytics {
  trend_id: number;
  period: string;
  current_volume: number;
  volume_change_percent: number | null;
  velocity_per_hour: number;
  velocity_trend: string;
  data: { timestamp: string; volume: number }[];
}

export interface Profile {
  id: number;
  email: string;
  organization_role: string;
  subscription: { plan_name: string };
}

export interface Plan {
  name: string;
  daily_quota: number | null;
  live_stream: boolean;
}
