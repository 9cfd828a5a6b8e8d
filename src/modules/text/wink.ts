/**
 * wink-nlp instances over the English model, safe to create again and again.
 *
 * wink-eng-lite-web-model's `metaCER()` JSON-encodes its module-level state in place each time it is called,
 * and wink-nlp calls it once per instance: the string grows about fourfold per instance, so the 16th instance in
 * a thread takes a second and hundreds of MB, and the 21st fails with "RangeError: Invalid string length". A
 * thread that replaces its instance to bound wink's memory (text/tokens.ts) would stop analysing after 20
 * replacements. Every instance here gets the model's first answer instead, which is what the first instance of
 * a thread gets.
 *
 * Loaded on first use, not at import: importers that never analyse text should not pay for the model (~0.3 s
 * and tens of MB). Both packages are CommonJS.
 */
import { createRequire } from 'node:module';
import type { Model } from 'wink-eng-lite-web-model';
import type { WinkMethods } from 'wink-nlp';

const requireCjs = createRequire(import.meta.url);
let model: Model | null = null;

/** The English model, its `metaCER` answered once for the thread. */
function englishModel(): Model {
  if (model === null) {
    const loaded = requireCjs('wink-eng-lite-web-model') as Model & { metaCER: () => unknown };
    const meta = loaded.metaCER();
    model = { ...loaded, metaCER: () => meta };
  }
  return model;
}

/** A new wink-nlp instance over the English model (`pipe`: wink's pipeline; `[]` reads tokens only). */
export function newWink(pipe?: string[]): WinkMethods {
  const winkNLP = requireCjs('wink-nlp') as typeof import('wink-nlp').default;
  return winkNLP(englishModel(), pipe);
}
