// Progress of a long CLI task on stderr: a bar redrawn in place on a terminal; otherwise (a pipe, a log
// file) one line every few seconds or every so many items, so logs stay readable.

interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

interface ProgressOptions {
  /** Shown first on every line: `ingest`, `process`. */
  label: string;
  /** The total in the units of `update`'s `done` (bytes, ms, signals); null when unknown. */
  total: number | null;
  /** What `items` counts, for the rate: `signals`. */
  unit: string;
  /** Default: process.stderr. */
  stream?: ProgressStream;
  /** Default: whether `stream` is a terminal. */
  tty?: boolean;
  /** Without a terminal, a line at least this often while work goes on (default 5 s). */
  intervalMs?: number;
  /** Without a terminal, also a line every this many items (default 10,000). */
  everyItems?: number;
  /** Injectable for tests. */
  now?: () => number;
}

const BAR_WIDTH = 28;
const REDRAW_MS = 100;

function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export class Progress {
  private readonly stream: ProgressStream;
  private readonly tty: boolean;
  private readonly intervalMs: number;
  private readonly everyItems: number;
  private readonly now: () => number;
  private readonly started: number;
  private done = 0;
  private items = 0;
  private lastDraw = -Infinity;
  private lastLineItems = 0;
  private finished = false;

  constructor(private readonly options: ProgressOptions) {
    this.stream = options.stream ?? process.stderr;
    this.tty = options.tty ?? this.stream.isTTY === true;
    this.intervalMs = options.intervalMs ?? 5000;
    this.everyItems = options.everyItems ?? 10_000;
    this.now = options.now ?? (() => Date.now());
    this.started = this.now();
    this.lastDraw = this.tty ? -Infinity : this.started;
  }

  /** `done`: progress towards `total`; `items`: how many items so far (for the count and the rate). */
  update(done: number, items: number): void {
    if (this.finished) return;
    this.done = done;
    this.items = items;
    const now = this.now();
    if (this.tty) {
      if (now - this.lastDraw >= REDRAW_MS) this.draw(now);
    } else if (now - this.lastDraw >= this.intervalMs || items - this.lastLineItems >= this.everyItems) {
      this.line(now);
    }
  }

  /** The final state, then a line break; `note` is appended (e.g. a summary). Idempotent. */
  finish(note?: string): void {
    if (this.finished) return;
    this.finished = true;
    const now = this.now();
    const seconds = (now - this.started) / 1000;
    const text =
      `${this.options.label}: done, ${formatCount(this.items)} ${this.options.unit} in ${seconds.toFixed(1)} s` +
      ` (${formatCount(this.rate(now))}/s)${note ? `, ${note}` : ''}`;
    this.stream.write(this.tty ? `\r${text}\x1b[K\n` : `${text}\n`);
  }

  private rate(now: number): number {
    const seconds = (now - this.started) / 1000;
    return seconds > 0 ? this.items / seconds : 0;
  }

  private fraction(): number | null {
    const { total } = this.options;
    if (total === null || total <= 0) return null;
    return Math.max(0, Math.min(1, this.done / total));
  }

  private status(now: number): string {
    return `${formatCount(this.items)} ${this.options.unit}, ${formatCount(this.rate(now))}/s`;
  }

  private draw(now: number): void {
    this.lastDraw = now;
    const fraction = this.fraction();
    let bar = '';
    if (fraction !== null) {
      const filled = Math.round(fraction * BAR_WIDTH);
      bar = ` [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${(fraction * 100).toFixed(1).padStart(5)}%`;
    }
    this.stream.write(`\r${this.options.label}${bar}  ${this.status(now)}\x1b[K`);
  }

  private line(now: number): void {
    this.lastDraw = now;
    this.lastLineItems = this.items;
    const fraction = this.fraction();
    const percent = fraction === null ? '' : ` ${(fraction * 100).toFixed(0)}%,`;
    this.stream.write(`${this.options.label}:${percent} ${this.status(now)}\n`);
  }
}
