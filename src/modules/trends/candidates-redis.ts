// Candidates shared through Redis (REDIS_URL): every instance that processes signals holds its candidates in the
// same place, so a phrase named once through each of two instances is promoted as on one, and a restart forgets
// nothing. One script call per batch decides every key atomically: two instances naming the same candidate at once
// cannot both promote it, nor both miss it.
//
// Per candidate: a hash `candidate:<key>` with its independent posts (JSON) and a list `candidate:<key>:past` of
// what each batch added (JSON, the last PAST_BATCHES kept), both expiring CANDIDATE_WINDOW_MS after it was last
// named; a sorted set `candidates` by last named time orders eviction past the capacity.
//
// The script runs inside the batch's database transaction: if that transaction then fails, the batch's posts stay
// held (they are named again when it is read again, counted once more towards volume) and a candidate it promoted
// loses what earlier batches added. Both are rare (a failed write) and bounded by one batch.
import type { Redis, Result } from 'ioredis';
import {
  CANDIDATE_WINDOW_MS,
  type CandidateObservation,
  type CandidateOutcome,
  type CandidatePast,
  type CandidatePool,
  type CandidateRules,
  type CandidateStats,
} from './candidates.ts';

/** Batches' additions kept per held candidate: a phrase one account floods is never promoted and would grow. */
const PAST_BATCHES = 64;

const SCRIPT = `
local prefix = ARGV[1]
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local minPosts = tonumber(ARGV[4])
local capacity = tonumber(ARGV[5])
local index = prefix .. 'candidates'
redis.call('ZREMRANGEBYSCORE', index, '-inf', now - window)
local out = {}
for i = 6, #ARGV, 3 do
  local key = ARGV[i]
  local hkey = prefix .. 'candidate:' .. key
  local pkey = hkey .. ':past'
  local posts = {}
  local stored = redis.call('HGET', hkey, 'posts')
  if stored then posts = cjson.decode(stored) end
  for _, p in ipairs(cjson.decode(ARGV[i + 1])) do table.insert(posts, p) end
  table.sort(posts, function(a, b) return a[3] > b[3] end)
  local newest = posts[1] and posts[1][3] or 0
  local taken, accounts, texts = {}, {}, {}
  for _, p in ipairs(posts) do
    if #taken >= minPosts or p[3] < newest - window then break end
    local text = tostring(p[2])
    if not accounts[p[1]] and not texts[text] then
      accounts[p[1]] = true
      texts[text] = true
      table.insert(taken, p)
    end
  end
  if #taken >= minPosts then
    local earlier = redis.call('LRANGE', pkey, 0, -1)
    redis.call('DEL', hkey, pkey)
    redis.call('ZREM', index, key)
    out[#out + 1] = earlier
  else
    redis.call('HSET', hkey, 'posts', cjson.encode(taken))
    redis.call('RPUSH', pkey, ARGV[i + 2])
    redis.call('LTRIM', pkey, -${PAST_BATCHES}, -1)
    redis.call('PEXPIRE', hkey, window)
    redis.call('PEXPIRE', pkey, window)
    redis.call('ZADD', index, now, key)
    out[#out + 1] = 0
  end
end
local evicted = 0
local excess = redis.call('ZCARD', index) - capacity
if excess > 0 then
  local gone = redis.call('ZPOPMIN', index, excess)
  for j = 1, #gone, 2 do
    redis.call('DEL', prefix .. 'candidate:' .. gone[j], prefix .. 'candidate:' .. gone[j] .. ':past')
    evicted = evicted + 1
  end
end
out[#out + 1] = evicted
out[#out + 1] = redis.call('ZCARD', index)
return out
`;

/** Observations per script call: one call holds Redis for its length, so a large batch goes in parts. */
const PER_CALL = 2_000;

export class RedisCandidates implements CandidatePool {
  private held = 0;
  private promoted = 0;
  private evicted = 0;
  private readonly windowMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly rules: CandidateRules,
  ) {
    this.windowMs = rules.windowMs ?? CANDIDATE_WINDOW_MS;
    if (!this.redis.crestwatchCandidates) {
      this.redis.defineCommand('crestwatchCandidates', { numberOfKeys: 0, lua: SCRIPT });
    }
  }

  async observe(observations: CandidateObservation[], now: number): Promise<CandidateOutcome[]> {
    const outcomes: CandidateOutcome[] = [];
    for (let from = 0; from < observations.length; from += PER_CALL) {
      const part = observations.slice(from, from + PER_CALL);
      const args: (string | number)[] = [
        this.prefix,
        now,
        this.windowMs,
        this.rules.minPosts,
        this.rules.capacity,
      ];
      for (const o of part) {
        args.push(
          o.key,
          JSON.stringify(o.posts.map((p) => [p.account, p.fingerprint, p.at])),
          JSON.stringify(o.past),
        );
      }
      const reply = (await this.redis.crestwatchCandidates(...args)) as (0 | string[] | number)[];
      for (let i = 0; i < part.length; i++) {
        const item = reply[i];
        if (Array.isArray(item)) {
          this.promoted++;
          outcomes.push({ promoted: true, earlier: item.map((json) => JSON.parse(json) as CandidatePast) });
        } else outcomes.push({ promoted: false });
      }
      this.evicted += Number(reply[part.length] ?? 0);
      this.held = Number(reply[part.length + 1] ?? 0);
    }
    return outcomes;
  }

  commit(): void {}

  rollback(): void {}

  stats(): CandidateStats {
    return { held: this.held, capacity: this.rules.capacity, promoted: this.promoted, evicted: this.evicted };
  }
}

declare module 'ioredis' {
  interface RedisCommander<Context> {
    crestwatchCandidates(...args: (string | number)[]): Result<unknown, Context>;
  }
}
