// Numbers and dates as the recommendations' sentences write them.

export const iso = (ms: number) => new Date(ms).toISOString();
export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function growthText(growth: number | null): string {
  if (growth === null) return 'no mentions in the previous 24 hours to compare with';
  return `${growth >= 0 ? '+' : ''}${round(growth, 1)} % against the previous 24 hours`;
}
