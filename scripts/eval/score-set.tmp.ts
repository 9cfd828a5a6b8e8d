import fs from 'node:fs';
import { classifySentiment } from '../../src/modules/insights/index.ts';
const file = process.argv[2]!;
const posts = JSON.parse(fs.readFileSync(file, 'utf8')) as { brand: string; label: string; text: string }[];
let correct = 0;
const brands = new Map<string, { n: number; lab: number; cls: number }>();
const conf = new Map<string, number>();
const misses: string[] = [];
for (const p of posts) {
  const c = classifySentiment(p.text).category;
  if (c === p.label) correct++;
  else misses.push(`${p.label.padEnd(8)} → ${c.padEnd(8)} ${p.text}`);
  conf.set(`${p.label}->${c}`, (conf.get(`${p.label}->${c}`) ?? 0) + 1);
  const b = brands.get(p.brand) ?? { n: 0, lab: 0, cls: 0 };
  b.n++; if (p.label === 'negative') b.lab++; if (c === 'negative') b.cls++;
  brands.set(p.brand, b);
}
const labNeg = posts.filter((p) => p.label === 'negative').length / posts.length;
const clsNeg = posts.filter((p) => classifySentiment(p.text).category === 'negative').length / posts.length;
console.log(`n ${posts.length} acc ${(correct / posts.length).toFixed(3)} neg labelled ${labNeg.toFixed(3)} classified ${clsNeg.toFixed(3)}`);
console.log([...conf].sort().map(([k, v]) => `${k} ${v}`).join(', '));
let mae = 0; let big = 0;
for (const [brand, b] of [...brands].sort()) {
  if (b.n < 8) continue;
  const d = Math.abs(b.lab / b.n - b.cls / b.n); mae += d; big++;
  console.log(`${brand.padEnd(20)} n ${String(b.n).padStart(3)} labelled ${(b.lab / b.n).toFixed(2)} stated ${(b.cls / b.n).toFixed(2)} |Δ| ${d.toFixed(2)}`);
}
console.log(`MAE over ${big} brands with ≥ 8 posts: ${(mae / big).toFixed(3)}`);
if (process.argv[3] === 'misses') console.log(misses.join('\n'));
