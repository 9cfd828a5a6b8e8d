// Evidence units shared through Redis (REDIS_URL): one set of 32-bit units per UTC hour, so that every instance
// knows which accounts and texts another already counted for a trend in that hour (evidence.ts). A set expires
// when its hour leaves the kept window; a set that reached the per-hour bound takes no more units (their
// mentions count in full, as in memory).
import type { Redis } from 'ioredis';
import type { Clock } from '../../platform/clock.ts';
import {
  EVIDENCE_HOURS_KEPT,
  EVIDENCE_UNITS_PER_HOUR,
  type EvidenceUnits,
  type SharedEvidence,
} from './evidence.ts';

const HOUR_S = 3600;

export class RedisEvidence implements SharedEvidence {
  /** Sizes of the hours' sets as last read, to stop adding to a full one. */
  private readonly sizes = new Map<number, number>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly clock: Clock,
    private readonly maxPerHour = EVIDENCE_UNITS_PER_HOUR,
  ) {}

  async counted(units: EvidenceUnits): Promise<EvidenceUnits> {
    const hours = [...units.entries()].filter(([hour, set]) => set.size > 0 && this.ttl(hour) > 0);
    const found: EvidenceUnits = new Map();
    if (hours.length === 0) return found;
    const pipeline = this.redis.pipeline();
    const asked = hours.map(([hour, set]) => {
      const list = [...set];
      pipeline.smismember(this.key(hour), ...list);
      pipeline.scard(this.key(hour));
      return list;
    });
    const replies = (await pipeline.exec()) ?? [];
    this.sizes.clear();
    hours.forEach(([hour], i) => {
      const [memberError, members] = replies[2 * i] ?? [new Error('no reply')];
      const [sizeError, size] = replies[2 * i + 1] ?? [new Error('no reply')];
      if (memberError) throw memberError;
      if (sizeError) throw sizeError;
      this.sizes.set(hour, Number(size));
      const list = asked[i]!;
      (members as number[]).forEach((member, j) => {
        if (member !== 1) return;
        const set = found.get(hour) ?? new Set<number>();
        set.add(list[j]!);
        found.set(hour, set);
      });
    });
    return found;
  }

  async share(units: EvidenceUnits): Promise<void> {
    const pipeline = this.redis.pipeline();
    let commands = 0;
    for (const [hour, set] of units) {
      const ttl = this.ttl(hour);
      if (set.size === 0 || ttl <= 0 || (this.sizes.get(hour) ?? 0) >= this.maxPerHour) continue;
      pipeline.sadd(this.key(hour), ...set);
      pipeline.expire(this.key(hour), ttl);
      commands += 2;
    }
    if (commands === 0) return;
    for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
  }

  private key(hour: number): string {
    return `${this.prefix}evidence:${hour}`;
  }

  /** Seconds until `hour` leaves the kept window (the hour and the EVIDENCE_HOURS_KEPT − 1 after it end). */
  private ttl(hour: number): number {
    return (hour + EVIDENCE_HOURS_KEPT) * HOUR_S - Math.floor(this.clock.now() / 1000);
  }
}
