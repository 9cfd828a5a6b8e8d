// vader-sentiment (a CommonJS webpack bundle) ships no type declarations: the parts we use.
declare module 'vader-sentiment' {
  export interface PolarityScores {
    neg: number;
    neu: number;
    pos: number;
    /** Normalised, weighted composite score in [-1, 1]. */
    compound: number;
  }

  export const SentimentIntensityAnalyzer: {
    polarity_scores(text: string): PolarityScores;
  };

  const vader: { SentimentIntensityAnalyzer: typeof SentimentIntensityAnalyzer };
  export default vader;
}
