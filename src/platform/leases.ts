// Background loops that must run on one instance at a time (trend recompute, retention, crisis detection,
// status checks, scheduled exports, …) each hold a lease in the database. The holder renews every lease it
// holds on a heartbeat (a third of the lease's life), so a healthy holder keeps its loops and an instance that
// dies (kill -9, lost network) hands them over once its leases expire: within one lease life plus one heartbeat.
// A holder trusts its lease only until a margin before the expiry the database records, measured on its own
// monotonic clock, so a stalled event loop stops running a loop before another instance may take it.
import { randomBytes } from 'node:crypto';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from './clock.ts';
import type { PlatformDb } from './db/index.ts';

/** A lease not renewed for this long passes to another instance. */
const LEASE_TTL_MS = 15_000;

interface LeaseRow {
  name: string;
  holder: string | null;
  expires_at: number;
  acquired_at: number;
}

export class LeaseStore {
  constructor(private readonly db: PlatformDb) {}

  /** Takes the lease (free, expired or already ours) until `until`; false while another holder has it. */
  async acquire(name: string, holder: string, now: number, until: number): Promise<boolean> {
    await this.db
      .insertInto('leases')
      .values({ name, holder: null, expires_at: 0, acquired_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const result = await this.db
      .updateTable('leases')
      .set((eb) => ({
        holder,
        expires_at: until,
        acquired_at: eb.case().when('holder', '=', holder).then(eb.ref('acquired_at')).else(now).end(),
      }))
      .where('name', '=', name)
      .where((eb) => eb.or([eb('holder', 'is', null), eb('expires_at', '<', now), eb('holder', '=', holder)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Gives up every lease `holder` has (shutdown), so another instance takes them at its next heartbeat. */
  async releaseAll(holder: string): Promise<void> {
    await this.db
      .updateTable('leases')
      .set({ holder: null, expires_at: 0 })
      .where('holder', '=', holder)
      .execute();
  }

  all(): Promise<LeaseRow[]> {
    return this.db.selectFrom('leases').selectAll().orderBy('name').execute();
  }
}

interface LoopState {
  /** performance.now() until which this instance may run the loop. */
  trustedUntil: number;
  runs: number;
}

/** What /status says of one loop: who holds it now (an opaque instance id), if anyone. */
interface LeaseHolding {
  name: string;
  holder: string | null;
}

/** A random id per process: shown on /status, so it names no host; /metrics maps it to the host name. */
export function newInstanceId(): string {
  return randomBytes(6).toString('hex');
}

export class Singletons {
  private readonly loops = new Map<string, LoopState>();
  private readonly ttlMs: number;
  private readonly marginMs: number;
  private heartbeat: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly store: LeaseStore,
    private readonly clock: Clock,
    readonly instanceId: string,
    options: { ttlMs?: number; onError?: (error: unknown) => void } = {},
  ) {
    this.ttlMs = options.ttlMs ?? LEASE_TTL_MS;
    this.marginMs = Math.ceil(this.ttlMs / 5);
    this.onError = options.onError ?? (() => undefined);
  }

  private readonly onError: (error: unknown) => void;

  /** Names a loop this instance runs, so the heartbeat takes and renews its lease. */
  register(name: string): void {
    if (!this.loops.has(name)) this.loops.set(name, { trustedUntil: 0, runs: 0 });
  }

  names(): string[] {
    return [...this.loops.keys()];
  }

  /** Renews every registered lease this instance can hold (the heartbeat; also called once at start). */
  renew(): Promise<void> {
    this.renewing ??= (async () => {
      try {
        for (const name of this.loops.keys()) await this.acquire(name);
      } finally {
        this.renewing = null;
      }
    })();
    return this.renewing;
  }

  /** Starts the heartbeat (a third of the lease's life) after taking what is free. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.renew().catch(this.onError);
    this.heartbeat = setInterval(
      () => {
        this.renew().catch(this.onError);
      },
      Math.floor(this.ttlMs / 3),
    );
    this.heartbeat.unref();
  }

  /** True while this instance holds `name` with a margin to spare. */
  holds(name: string): boolean {
    return (this.loops.get(name)?.trustedUntil ?? 0) > performance.now();
  }

  /**
   * Runs `task` if this instance holds the loop's lease (taking it when free); undefined when another instance
   * holds it. Without a heartbeat (tests driving loops by hand) the lease is taken on demand.
   */
  async run<T>(name: string, task: () => Promise<T>): Promise<T | undefined> {
    if (this.stopped) return undefined;
    this.register(name);
    if (!this.holds(name) && !(await this.acquire(name))) return undefined;
    this.loops.get(name)!.runs++;
    return task();
  }

  /** Stops renewing and starting passes (shutdown); the leases stay held until `release`. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.heartbeat);
    for (const state of this.loops.values()) state.trustedUntil = 0;
  }

  /** Stops, then gives every lease up, so another instance takes them at once; safe to call more than once. */
  async release(): Promise<void> {
    this.stop();
    await this.renewing?.catch(() => undefined);
    await this.store.releaseAll(this.instanceId);
  }

  /** Every loop with a lease row, with its holder as of now. */
  async holdings(): Promise<LeaseHolding[]> {
    const now = this.clock.now();
    return (await this.store.all()).map((row) => ({
      name: row.name,
      holder: row.holder && row.expires_at >= now ? row.holder : null,
    }));
  }

  /** Per loop: 1 when this instance holds it, and how many times it ran here. */
  local(): { name: string; held: boolean; runs: number }[] {
    return [...this.loops].map(([name, state]) => ({ name, held: this.holds(name), runs: state.runs }));
  }

  private async acquire(name: string): Promise<boolean> {
    const state = this.loops.get(name)!;
    if (this.stopped) return false;
    const started = performance.now();
    const now = this.clock.now();
    const held = await this.store.acquire(name, this.instanceId, now, now + this.ttlMs);
    state.trustedUntil = held && !this.stopped ? started + this.ttlMs - this.marginMs : 0;
    return held;
  }
}

/** A source of further leases to report (the signal sources keep theirs beside each source's cursor). */
interface LeaseReporter {
  /** Loop names this instance holds right now. */
  held(): string[];
}

/**
 * `crestwatch_lease_held{loop}` (1 on the instance that holds it: summed over instances, 1 per loop),
 * `crestwatch_lease_runs_total{loop}` and `crestwatch_instance_info{instance, hostname}`.
 */
export function registerLeaseMetrics(
  registry: Registry,
  singletons: Singletons,
  others: LeaseReporter[],
  hostname: string,
): void {
  new Gauge({
    name: 'crestwatch_lease_held',
    help: 'Background loops this instance runs: 1 per loop held here (summed over instances, 1 per loop).',
    labelNames: ['loop'],
    registers: [registry],
    collect() {
      this.reset();
      for (const loop of singletons.local()) this.set({ loop: loop.name }, loop.held ? 1 : 0);
      for (const other of others) for (const name of other.held()) this.set({ loop: name }, 1);
    },
  });
  new Counter({
    name: 'crestwatch_lease_runs_total',
    help: 'Passes of each singleton background loop run by this instance.',
    labelNames: ['loop'],
    registers: [registry],
    collect() {
      this.reset();
      for (const loop of singletons.local()) this.inc({ loop: loop.name }, loop.runs);
    },
  });
  new Gauge({
    name: 'crestwatch_instance_info',
    help: "This process's instance id (as /status shows lease holders) and host name; always 1.",
    labelNames: ['instance', 'hostname'],
    registers: [registry],
    collect() {
      this.reset();
      this.set({ instance: singletons.instanceId, hostname }, 1);
    },
  });
}
