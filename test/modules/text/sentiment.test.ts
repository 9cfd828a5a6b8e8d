import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { analyseBatch } from '../../../src/modules/text/analysis.ts';
import {
  COMPLAINT_PHRASES,
  complaintPhrases,
  DESK_WORDS,
  expandPattern,
  GRATITUDE_WORDS,
  NARRATIVE_PHRASES,
  NEUTRAL_PHRASES,
  REQUEST_PHRASES,
  REQUEST_WORDS,
  SARCASM_WORDS,
  SELF_CONTAINED_PHRASES,
  SERVICE_WORDS,
} from '../../../src/modules/text/complaints.ts';
import { compound, mentionSentiment, sentenceSentiments } from '../../../src/modules/text/index.ts';
import { mentionScore } from '../../../src/modules/text/sentiment.ts';
import { sentimentCategory } from '../../../src/modules/trends/index.ts';
import {
  IMPLICIT_COMPLAINTS,
  INFORMATION_QUESTIONS,
  REPROACH_QUESTIONS,
  SEVEN_COMPLAINTS,
  SOLVED_PROBLEMS,
} from '../../fixtures/complaints.ts';

describe('compound', () => {
  test('positive text scores above 0.05', () => {
    assert.ok(compound('VADER is very smart, handsome, and funny') > 0.5);
    assert.ok(compound('I love the new update, it is amazing!!! 😍') > 0.05);
  });

  test('negative text scores below -0.05', () => {
    assert.ok(compound('This is a horrible, terrible disaster. Many people were killed.') < -0.5);
    assert.ok(compound('worst outage ever, totally broken :(') < -0.05);
  });

  test('neutral text scores near 0', () => {
    assert.ok(Math.abs(compound('The meeting is on Tuesday at 10am in room 4.')) < 0.05);
  });

  test('matches the VADER reference value', () => {
    assert.equal(compound('VADER is very smart, handsome, and funny'), 0.8545);
  });

  test('empty, blank and missing text score 0', () => {
    assert.equal(compound(''), 0);
    assert.equal(compound('   \n\t'), 0);
    assert.equal(compound(null), 0);
    assert.equal(compound(undefined), 0);
    assert.equal(Object.is(compound('   '), -0), false);
  });

  test('long text is scored without error', () => {
    const score = compound('Great news! '.repeat(2000));
    assert.ok(score > 0 && score <= 1);
  });

  test('always a finite number in [-1, 1], never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        const score = compound(text);
        assert.ok(Number.isFinite(score));
        assert.ok(score >= -1 && score <= 1, String(score));
      }),
      { numRuns: 1000, seed: 20_261_121 },
    );
  });
});

// The complaint layer (src/modules/text/complaints.ts) and the per-mention score built on it.
describe('complaint layer and mentionScore', () => {
  const negative = (text: string) => assert.ok(mentionScore(text) <= -0.05, `${text}: ${mentionScore(text)}`);
  const positive = (text: string) => assert.ok(mentionScore(text) >= 0.05, `${text}: ${mentionScore(text)}`);
  const neutral = (text: string) =>
    assert.ok(Math.abs(mentionScore(text)) < 0.05, `${text}: ${mentionScore(text)}`);

  test('every phrase of the lexicon, in every written form, reads as a complaint', () => {
    let forms = 0;
    for (const [pattern] of [...COMPLAINT_PHRASES, ...SELF_CONTAINED_PHRASES, ...REQUEST_PHRASES]) {
      for (const seq of expandPattern(pattern)) {
        const phrase = seq.map((w) => (w === '#' || w === '$' ? '3' : w === '*' ? 'really' : w)).join(' ');
        const text = `Update from me: ${phrase}.`;
        assert.ok(complaintPhrases(text).length > 0, `${pattern}: no match in "${text}"`);
        negative(text);
        forms++;
      }
    }
    assert.ok(forms > 1000, String(forms));
  });

  test('every word the layer corrects is one VADER scores positive', () => {
    const { lexicon } = createRequire(import.meta.url)('vader-sentiment/src/vader_lexicon.js') as {
      lexicon: Record<string, number>;
    };
    for (const word of [
      ...SERVICE_WORDS,
      ...GRATITUDE_WORDS,
      ...SARCASM_WORDS,
      ...REQUEST_WORDS,
      ...DESK_WORDS,
    ]) {
      assert.ok((lexicon[word] ?? 0) > 0, word);
    }
  });

  test('neutral phrases replace what VADER misreads by 0', () => {
    for (const [pattern, weight] of NEUTRAL_PHRASES) {
      assert.equal(weight, 0);
      for (const seq of expandPattern(pattern)) neutral(`Update from me: ${seq.join(' ')}.`);
    }
    // VADER reads these as negative or positive; they are neither.
    assert.ok(compound('No delays so far.') < -0.05);
    neutral('No delays so far.');
    assert.ok(compound('Great noise cancellation.') > 0.05);
    assert.equal(mentionScore('Great noise cancellation.'), compound('Great noise cancellation.'));
  });

  test('complaint verbs and phrases count as negative, also where VADER reads them as neutral or positive', () => {
    // VADER: 0 or positive.
    for (const text of [
      'On hold for 2 hours',
      'Still waiting for my refund',
      'The app crashes every time I open it',
      'Support never answers',
      'The price is a ripoff',
      'What a rip-off',
      'I want a refund',
    ]) {
      assert.ok(compound(text) >= 0, `VADER already reads "${text}" as ${compound(text)}`);
      negative(text);
    }
    // VADER: mildly negative; the phrase weight replaces VADER's own for the words it covers.
    for (const text of ['Our flight got cancelled', 'Flight delayed 3 hours', 'They lost my bag']) {
      assert.ok(mentionScore(text) < compound(text) && compound(text) < 0, text);
    }
  });

  test('a negator before a complaint phrase cancels it; a hypothetical makes it neutral', () => {
    assert.deepEqual(complaintPhrases('My flight was not delayed'), []);
    assert.deepEqual(complaintPhrases("The package wasn't lost after all"), []);
    assert.deepEqual(complaintPhrases('Never crashes'), []);
    positive('My flight was not delayed, smooth trip.');
    neutral('No delays today.');
    neutral('Are there any delays today?');
    // Hypothetical: VADER's own "delayed" (−0.9) and "lost" (−1.3) are set to 0 as well.
    assert.ok(compound('What happens if my flight is delayed?') < -0.05);
    neutral('What happens if my flight is delayed?');
    neutral('If my bag is lost, who do I contact?');
    // Phrases that carry their own negation are never cancelled.
    negative('They never answer the phone');
    negative('Still no refund');
    negative('I did not get a refund');
  });

  test('implicit complaints (a disruption or failure named without a sentiment word) score negative', () => {
    for (const text of IMPLICIT_COMPLAINTS) {
      assert.equal(compound(text), 0, `VADER reads "${text}" as ${compound(text)}`);
      assert.ok(complaintPhrases(text).length > 0, text);
      negative(text);
    }
    // "not her problem" is a negated negative word for VADER, so it reads as praise.
    assert.ok(compound('@skyjet asked the agent and was told it is not her problem') > 0.05);
    negative('@skyjet asked the agent and was told it is not her problem');
  });

  test('an information question about a problem is neutral; a question about one’s own problem or a reproach is not', () => {
    for (const text of INFORMATION_QUESTIONS) {
      assert.deepEqual(complaintPhrases(text), [], text);
      neutral(text);
    }
    // Without the question rule these read as complaints: VADER alone already calls some negative.
    assert.ok(compound('@skyjet is my flight delayed?') < -0.05);
    // The same phrases once the writer reports them as theirs, or reproaches.
    for (const text of REPROACH_QUESTIONS) negative(text);
    // "what a" exclaims, it does not ask; a statement is no question.
    negative('What a rip-off');
    negative('@skyjet is down again');
    negative('@skyjet my flight is delayed.');
  });

  test('a problem named as solved is no complaint: thanks and praise keep their weight', () => {
    for (const text of SOLVED_PROBLEMS) positive(text);
    assert.deepEqual(complaintPhrases('@skyjet found my lost bag, thank you!'), []);
    // Not solved: the resolution word is negated, or is "found out".
    negative('@acmefiber nobody has fixed the outage');
    negative('@skyjet found out my flight was cancelled from the app');
  });

  test('capitals add VADER’s emphasis to a complaint phrase, and a complaint hashtag counts as a phrase', () => {
    assert.ok(mentionScore('@skyjet my flight is DELAYED') < mentionScore('@skyjet my flight is delayed'));
    // An all-capitals text has no contrast, as in VADER.
    assert.equal(mentionScore('MY FLIGHT IS DELAYED'), mentionScore('my flight is delayed'));
    assert.deepEqual(
      complaintPhrases('@skyjet #WorstAirline #fail').map((m) => m.text),
      ['worstairline', 'fail'],
    );
    assert.equal(compound('@skyjet #neveragain'), 0);
    negative('@skyjet #neveragain');
    // A hashtag without a complaint stem is just a tag.
    assert.equal(mentionSentiment('@skyjet #travel #summer').corrected, false);
  });

  test('a phrase the layer weighs 0 still marks the mention as read by the layer', () => {
    const m = mentionSentiment('@acmefiber is there an outage map?');
    assert.equal(m.score, 0);
    assert.equal(m.corrected, true);
  });

  test('VADER negators are case-sensitive, as in VADER ("Nothing." negates nothing)', () => {
    negative('I was promised a callback yesterday. Nothing. Thanks for nothing.');
  });

  test('sarcasm: praise next to a complaint, or standing alone in a complaint, reads as negated', () => {
    for (const text of [
      'Great, another delay.',
      'Love waiting on hold for two hours.',
      'Thanks for nothing.',
      'Thanks @skyjet for the 3 hour delay',
      'Delayed again. Great.',
      'Nice job losing my bag.',
      'Gotta love a cancelled flight at midnight.',
      'Oh great, my flight is cancelled.',
      '40 minutes on the phone and the call dropped. Fantastic service.',
    ]) {
      assert.ok(compound(text) > 0.05, `VADER reads "${text}" as ${compound(text)}`);
      negative(text);
    }
  });

  test('genuine praise around a complaint stays positive', () => {
    positive('Thanks for rebooking me so quickly after the cancellation, the agent was wonderful.');
    positive('The flight was delayed but the crew was great.');
    positive('Delayed, but the crew kept us informed. Great job.');
    positive('I got a refund within two days, thank you!');
    positive('The support team was great and helped me right away.');
    positive('Thanks for the help!');
  });

  test('service and courtesy words: neutral service talk stays neutral, and they lose their praise in complaints', () => {
    for (const text of [
      '@skyjet please DM me about my booking, thanks',
      'Can you help me change my seat?',
      'How do I contact customer support?',
      'Customer support is available 24/7 by chat.',
      'The help desk opens at 9.',
    ]) {
      assert.ok(compound(text) > 0.05, `VADER reads "${text}" as ${compound(text)}`);
      neutral(text);
    }
    // In a complaint, "support", "help", "please" and a closing "thanks" are not praise.
    assert.ok(compound('My bag is lost, please help. Thanks') > 0.05);
    negative('My bag is lost, please help. Thanks');
    negative('Acme is terrible, support never answers and the price is a ripoff.');
  });

  test('without complaint or courtesy language the score is exactly VADER', () => {
    for (const text of ['VADER is very smart, handsome, and funny', 'The meeting is on Tuesday at 10am.']) {
      assert.equal(mentionSentiment(text).corrected, false);
      assert.equal(mentionScore(text), compound(text));
    }
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        const m = mentionSentiment(text);
        assert.ok(m.corrected || m.score === compound(text));
      }),
      { numRuns: 500, seed: 17 },
    );
  });

  test('always a finite number in [-1, 1], never -0, never throws', () => {
    const vocabulary = [
      'not',
      'never',
      'no',
      'but',
      'great',
      'love',
      'thanks',
      'for',
      'nothing',
      'on',
      'hold',
      'delayed',
      'still',
      'waiting',
      'refund',
      '3',
      'hours',
      'please',
      'help',
      'support',
      'if',
      '.',
      ',',
      '!',
      '?',
      'rip',
      'off',
      'lost',
      'my',
      'bag',
      'terrible',
      'NOT',
      'But',
      "can't",
      'get',
      'through',
      'a',
      'joke',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...vocabulary), { maxLength: 40 }), (words) => {
        const score = mentionScore(words.join(' '));
        assert.ok(Number.isFinite(score) && score >= -1 && score <= 1, String(score));
        assert.equal(Object.is(score, -0), false);
      }),
      { numRuns: 2000, seed: 1717 },
    );
    assert.equal(mentionScore(null), 0);
    assert.equal(mentionScore('   '), 0);
    assert.ok(mentionScore('Still waiting for a refund. '.repeat(1000)) < -0.05);
  });

  test('seven complaint variants score negative per mention (the trend engine’s score at ingest)', () => {
    for (const text of SEVEN_COMPLAINTS) negative(text);
    // Through the ingest analysis itself: every variant has candidates, so its score is mentionScore.
    const analysis = analyseBatch(SEVEN_COMPLAINTS.map((text) => ({ text, title: null, lang: 'en' })));
    const sums = { sum: 0, count: 0, positive: 0, negative: 0 };
    analysis.scores.forEach((score, i) => {
      assert.ok(analysis.offsets[i + 1]! > analysis.offsets[i]!, 'the variant has candidates');
      sums.sum += score;
      sums.count++;
      if (score >= 0.05) sums.positive++;
      if (score <= -0.05) sums.negative++;
    });
    assert.equal(sums.negative, 7);
    assert.equal(sentimentCategory(sums), 'negative');
  });
});

// Long, story-like complaints (issue 17, "complaints heard"): narrative cues, story endings, names in sarcasm,
// and the sentence-by-sentence reading insights use.
describe('complaint layer on narratives', () => {
  const negative = (text: string) => assert.ok(mentionScore(text) <= -0.05, `${text}: ${mentionScore(text)}`);
  const positive = (text: string) => assert.ok(mentionScore(text) >= 0.05, `${text}: ${mentionScore(text)}`);
  const narrativeCues = (text: string) => complaintPhrases(text).filter((m) => m.pattern === 'narrative');

  test('every narrative cue, in every written form, counts only when another cue or a complaint corroborates it', () => {
    let forms = 0;
    for (const pattern of NARRATIVE_PHRASES) {
      for (const seq of expandPattern(pattern)) {
        const phrase = seq.map((w) => (w === '#' || w === '$' ? '3' : w === '*' ? 'really' : w)).join(' ');
        const alone = `Update from me: ${phrase}.`;
        assert.deepEqual(narrativeCues(alone), [], alone);
        const corroborated = `Update from me: ${phrase}. The order is still missing.`;
        assert.ok(
          narrativeCues(corroborated).some((m) => m.text === phrase),
          `${pattern}: not read in "${corroborated}"`,
        );
        negative(corroborated);
        forms++;
      }
    }
    assert.ok(forms > 300, String(forms));
  });

  test('a failure told as a story, without a sentiment word, is negative', () => {
    for (const text of [
      'Our flight was supposed to depart at 7am. We were told to get off the plane at noon.',
      'Ordered on the 2nd and it was supposed to arrive in 3 days. Two weeks later I was told it never left the warehouse.',
      'Support told me to clear the cache. Same answer every time I contact them.',
      'The engineer never turned up. Nobody told us why and the next slot is in three weeks.',
      'They renewed my contract for 24 months. I never signed anything.',
      'I paid for a sea view and got the car park. That is not what I paid for.',
    ]) {
      assert.ok(compound(text) > -0.05, `VADER alone already reads it as negative: ${text}`);
      negative(text);
    }
  });

  test('a single narrative cue changes nothing: the score stays VADER’s', () => {
    for (const text of [
      'I was told the store opens at 9.',
      'Two days later they called me and the laptop arrived by courier. Thank you so much!',
      'Ledgerly announced the old desktop app will be retired in June. I was told the pricing stays the same.',
    ]) {
      assert.deepEqual(narrativeCues(text), [], text);
      assert.equal(mentionScore(text), compound(text), text);
    }
  });

  test('a story that ends well: praise after the problem was solved is praise, not courtesy', () => {
    positive('My card was declined at the checkout. The bank sorted it out within minutes. Really grateful.');
    positive(
      'Our flight was delayed overnight because of a storm. The airline had hotel vouchers ready and ' +
        "rebooked us on the first flight out. Honestly one of the best handled disruptions I've seen.",
    );
    // Not when a complaint follows the solution, and not when the solution is negated.
    negative('They fixed it on Monday, then it was down again on Tuesday. Thanks.');
    negative('My card was declined at the checkout. Nobody has sorted it out yet. Really grateful.');
  });

  test('sarcasm: a praise word beside a name only, after a complaint, reads as negated', () => {
    negative('The courier handed my parcel to a neighbour without asking. Thanks Zipline, great job.');
    // The name does not make genuine praise sarcastic.
    positive('Thanks Zipline, great job.');
  });

  test('sentenceSentiments reads each sentence within the whole text', () => {
    const sentences = sentenceSentiments('Great crew. Flight delayed 3 hours. Thanks. @skyjet');
    assert.equal(sentences.length, 3);
    assert.ok(sentences[0]!.score >= 0.05 && !sentences[0]!.complaint);
    assert.ok(sentences[1]!.score <= -0.05 && sentences[1]!.complaint);
    // "Thanks." alone is gratitude; after a complaint it is courtesy.
    assert.ok(mentionScore('Thanks.') >= 0.05);
    assert.ok(sentences[2]!.score < 0.05 && !sentences[2]!.complaint);
    assert.deepEqual(sentenceSentiments(''), []);
    assert.equal(sentenceSentiments('One sentence only, no end mark').length, 1);
    // Decimals, times and trailing handles do not split a sentence.
    assert.equal(sentenceSentiments('The rate went from 3.1% to 3.0% at 6:15 today. @bank').length, 1);
  });
});
