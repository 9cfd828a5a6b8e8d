// Scripted posts for crisis tests and the evaluation: distinct texts (no near-duplicates) about a topic.
const NEG = [
  'terrible',
  'awful',
  'broken',
  'horrible',
  'furious',
  'disgusting',
  'useless',
  'scam',
  'angry',
  'worst',
];
const POS = [
  'love',
  'amazing',
  'great',
  'wonderful',
  'fantastic',
  'excellent',
  'brilliant',
  'happy',
  'best',
  'superb',
];
const FILL = [
  'today',
  'again',
  'support',
  'refund',
  'customers',
  'billing',
  'app',
  'service',
  'update',
  'account',
  'login',
  'order',
  'delivery',
  'team',
  'price',
  'website',
  'phone',
  'email',
  'store',
  'week',
  'morning',
  'night',
  'people',
  'friends',
  'office',
  'weekend',
  'release',
  'version',
  'feature',
  'data',
  'battery',
  'screen',
  'network',
  'server',
];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `n` distinct posts mentioning `topic`, clearly negative or positive. */
export function posts(topic: string, n: number, tone: 'negative' | 'positive', seed = 1): string[] {
  const r = rng(seed);
  const pick = <T>(list: T[]) => list[Math.floor(r() * list.length)];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const words: string[] = [];
    for (let w = 0; w < 9; w++) words.push(pick(FILL));
    const tones = tone === 'negative' ? NEG : POS;
    words.splice(2, 0, pick(tones));
    words.splice(6, 0, pick(tones));
    out.push(`${topic} ${words.join(' ')} ${tone === 'negative' ? 'so bad' : 'so good'} #${i}`);
  }
  return out;
}
