// The velocity_score levels whose upward crossing the recompute records as an event: a fixed default, plus
// levels other modules ask for (the webhooks module registers its subscriptions' thresholds). The port points
// from the consumer to trends: trends never knows who watches.

/** Levels every deployment watches. */
export const DEFAULT_VELOCITY_LEVELS: readonly number[] = [25, 50, 75, 90];

/** Further levels to watch, read once per recompute batch (a source that queries caches its answer). */
export type VelocityLevelSource = () => Promise<readonly number[]> | readonly number[];

export class VelocityLevels {
  private readonly sources: VelocityLevelSource[] = [];

  constructor(private readonly defaults: readonly number[] = DEFAULT_VELOCITY_LEVELS) {}

  watch(source: VelocityLevelSource): void {
    this.sources.push(source);
  }

  /** The defaults and every source's levels, once each, ascending. A source's failure is the caller's. */
  async current(): Promise<number[]> {
    const levels = new Set(this.defaults);
    for (const source of this.sources) for (const level of await source()) levels.add(level);
    return [...levels].sort((a, b) => a - b);
  }
}
