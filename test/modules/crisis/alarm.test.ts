import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALARMING_AT, alarm, isAlarming } from '../../../src/modules/crisis/alarm.ts';
import { compound } from '../../../src/modules/text/index.ts';

describe('crisis language (alarm)', () => {
  it('factual crisis reports are alarming though VADER scores them 0', () => {
    for (const text of [
      'Explosion at the finish line',
      'Tornado on the ground, take shelter now',
      'Evacuate now, flood waters rising',
      'Hurricane makes landfall',
    ]) {
      assert.equal(compound(text), 0, `VADER reads "${text}" as neutral`);
      const a = alarm(text);
      assert.ok(isAlarming(a), `${text}: ${JSON.stringify(a)}`);
      assert.ok(a.score >= ALARMING_AT && a.score <= 1);
      assert.ok(a.terms.length > 0);
    }
    assert.deepEqual(alarm('Explosion at the finish line').terms, ['explosion']);
    assert.deepEqual(alarm('Tornado on the ground, take shelter now').categories, ['emergency', 'hazard']);
    assert.deepEqual(alarm('Hurricane makes landfall').terms.sort(), ['hurricane', 'landfall']);
  });

  it('ordinary and upbeat posts are not alarming; one weak term alone is not', () => {
    for (const text of [
      'Loving the new phone, the launch event was amazing',
      'Support never answers and the price is a ripoff',
      'We killed it at the launch party, had a blast!',
      'Crash course in TypeScript this weekend',
      'Big fire sale on all laptops today',
      'Praying for a good exam result',
    ]) {
      assert.ok(!isAlarming(alarm(text)), `${text}: ${JSON.stringify(alarm(text))}`);
    }
    assert.equal(alarm('the app crashed again').score, 0.5);
    assert.equal(alarm('').score, 0);
    assert.equal(alarm(null).score, 0);
  });

  it('two weak terms together are alarming', () => {
    const a = alarm('Smoke and fire near the station, firefighters on the way');
    assert.ok(isAlarming(a), JSON.stringify(a));
  });

  it("the interest's own words are not an alarm", () => {
    assert.ok(isAlarming(alarm('Walking Dead finale tonight')));
    assert.ok(!isAlarming(alarm('Walking Dead finale tonight', 'walking dead')));
    assert.ok(!isAlarming(alarm('Fire TV update and #firetv deals', 'Fire TV')));
    // …but other crisis words about it still are.
    assert.ok(isAlarming(alarm('Fire TV factory explosion, workers evacuated', 'Fire TV')));
  });

  it("the words of every interest of a subject, and an interest's name as one hashtag, are not an alarm", () => {
    // Read for "earthquake" alone, "quake" is news about it; read for both interests together it names the subject.
    assert.ok(isAlarming(alarm('earthquake! did you feel that quake', 'earthquake')));
    assert.ok(!isAlarming(alarm('earthquake! did you feel that quake', ['earthquake', 'quake'])));
    assert.ok(isAlarming(alarm('quake in the harbor, tanker explosion', ['earthquake', 'quake'])));
    // "#BoulderFlood" is the interest "boulderflood" cased another way: its "flood" is the name, not an alarm.
    assert.ok(isAlarming(alarm('#BoulderFlood photos from downtown')));
    assert.ok(!isAlarming(alarm('#BoulderFlood photos from downtown', 'boulderflood')));
    assert.ok(isAlarming(alarm('#BoulderFlood: homes flooded on 4th street', 'boulderflood')));
  });

  it('plurals, inflections, accents and glued hashtags match; idioms do not', () => {
    assert.deepEqual(alarm('Two explosions reported').terms, ['explosion']);
    assert.ok(isAlarming(alarm('Residents evacuated overnight')));
    assert.ok(isAlarming(alarm('#phquake felt in the city')));
    assert.ok(isAlarming(alarm('INUNDACIÓN en el centro')));
    assert.ok(!isAlarming(alarm('She killed it on stage')));
  });

  it('core hazard words in other languages', () => {
    for (const text of [
      'Fuerte sismo sacude la capital, hay heridos',
      'Incêndio na boate, dezenas de mortos',
      'Séisme ressenti à Nice',
      'Alluvione in Sardegna, evacuazione in corso',
      'Взрыв на заводе, есть пострадавшие',
      'Lindol sa Bohol',
    ]) {
      assert.ok(isAlarming(alarm(text)), `${text}: ${JSON.stringify(alarm(text))}`);
    }
  });
});
