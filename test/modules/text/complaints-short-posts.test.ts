// The complaint layer's rules for short social posts to a company (crestwatch-metrics/5, /6, /8, /9, /10 and /12): waiting and
// durations, chasing and doubting questions, missing items, scare quotes, questions about a case, turns to
// praise and praise idioms, contact and blocking. Each test fails without its rule.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ABSENCE_PHRASES,
  complaintPhrases,
  expandPattern,
  PRAISE_PHRASES,
} from '../../../src/modules/text/complaints.ts';
import { compound, mentionScore } from '../../../src/modules/text/sentiment.ts';

const negative = (text: string) => assert.ok(mentionScore(text) <= -0.05, `${text}: ${mentionScore(text)}`);
const positive = (text: string) => assert.ok(mentionScore(text) >= 0.05, `${text}: ${mentionScore(text)}`);
const neutral = (text: string) =>
  assert.ok(Math.abs(mentionScore(text)) < 0.05, `${text}: ${mentionScore(text)}`);

describe('complaint layer: short posts', () => {
  test('a waiting word with a duration anywhere in its clause is a complaint, unless negated or hypothetical', () => {
    negative('@Air waiting for my bags for over an hour');
    negative('sat at gate 4 with the kids for 2 hours');
    negative('@Air we have been sitting here forever');
    neutral("@Air we weren't waiting for more than 5 minutes");
    neutral("@Air if you're stuck for 2 hours, who do I call?");
  });

  test('a duration at a place, before a waiting word or as the length of a wait is a complaint', () => {
    negative('@Air 45 min waiting for a gate to open after landing');
    negative('@Air an hour at baggage claim');
    negative('@Air tarmac for 2 hours');
    negative('@Air day 3 without my bag');
    negative('@Air 4 days without internet');
    // sarcasm: the thanks is read as negated before a wait named by its length
    assert.ok(compound('@Air thank you for the 3 hour wait') > 0.05);
    negative('@Air thank you for the 3 hour wait');
    // a planned layover is no wait
    neutral('@Air I have a 3 hour layover in Denver');
  });

  test('a fee quoted with its amount in digits is a complaint; asked about, or without an amount, it is not', () => {
    negative('@Air a $40 fee for a carry-on? come on');
    negative('@Air $200 change fee for moving my flight by one day');
    neutral('@Air is there a $25 fee for a second bag?');
    assert.equal(
      complaintPhrases('I paid a fee for the seat').some((m) => m.text.includes('fee')),
      false,
    );
  });

  test('questions that doubt the company or chase an open case are complaints', () => {
    negative('@Air do you guys even read your DMs');
    negative('@Air any update on my bag?');
    negative('@Bank why does a transfer between my own accounts take 3 days');
    negative('@Air what am I supposed to do now?');
    negative('@Air nobody is answering');
    negative("@Air a $40 fee? you're joking");
    neutral('@Air any update?');
    neutral('@Air do you even fly to Lisbon in winter?');
  });

  test('"always" makes a question about a disruption a reproach; billing for what was returned is a complaint', () => {
    negative('@Air is there a reason the plane is always late on this route?');
    // a time does not end the clause: the question is still one
    neutral('@Air is the 6:10 flight late?');
    negative('@Air the 6:10 flight is late again');
    negative('@Mobile billed for a phone I returned in March');
    negative('@Air charged me for a bag I never checked');
    neutral('@Mobile billed for a phone I bought in March');
  });

  test('missing items and machines that ate something are complaints', () => {
    negative('@Air bag arrived but someone went through it and my headphones are gone');
    negative('@Air my charger went missing from my checked bag');
    negative('@Air the kiosk ate my boarding pass');
    negative('@Air so now my connection is gone and the next flight is full');
    negative("@Air my seat won't recline on a 9 hour flight");
  });

  test('telling the company what it got wrong is a complaint', () => {
    negative('@Air fix your app');
    negative('@Air do better');
    negative('@Air get your act together');
    negative("@Air I've been a loyal customer for 10 years and this is what I get");
    negative('@Air gate agent just walked off');
  });

  test('a short quotation is a scare quote when something else corroborates it; alone it changes nothing', () => {
    negative('@Parcel my parcel has been "out for delivery" since Friday');
    negative('@Air thanks for the "upgrade" to a seat that doesn\'t recline next to the toilet');
    // a quoted praise word in a complaint is the company's word
    assert.ok(
      mentionScore("Thanks for the 'lovely' update. Still no refund after six weeks.") <
        mentionScore('Thanks for the lovely update. Still no refund after six weeks.'),
    );
    const praise = 'The crew sang "happy birthday" to my daughter';
    assert.equal(mentionScore(praise), compound(praise));
    neutral("@Air what does 'basic economy' include?");
  });

  test('in a post to a company, quoting it back is a complaint of its own, unless it is a name or praised', () => {
    negative("@Hotel found a hair in the 'freshly cleaned' shower. nice");
    negative('@Shop your chat says "an agent will be with you shortly". that was at noon');
    negative("@Air the 'premium' meal was a cold wrap and a bag of pretzels");
    // not addressed to anyone: a short quotation still needs corroboration
    const story = "the 'premium' meal was a cold wrap and a bag of pretzels";
    assert.equal(mentionScore(story), compound(story));
    // a name or a title is no scare quote
    neutral('@Air booked the "Wanna Get Away" fare for March');
    // praise outside the quotation is the writer's, and the quotation is not a protest
    positive('@Air the crew sang "happy birthday" to my daughter, thank you!!');
    positive('@Air flight attendant Kim called it "the party row" and made everyone laugh');
    // asked about, a quotation is no complaint
    neutral("@Air what does 'basic economy' include?");
  });

  test('a negative word in a question about a case, not one that happened, is not a complaint', () => {
    assert.ok(compound('@Air what happens to my ticket if I miss my first leg?') < -0.05);
    neutral('@Air what happens to my ticket if I miss my first leg?');
    neutral('@Parcel what time do drivers stop delivering?');
    neutral('@Air if the flight is cancelled do I get a refund or a credit?');
    // strong words in a plain question, and questions that reproach, still count
    negative('@Air does it have a bad ending?');
    negative('@Parcel why did you stop delivering?');
  });

  test('praise after a turn that follows the last complaint is praise, not courtesy or sarcasm', () => {
    positive('@Air delayed an hour but the captain kept us informed the whole time. appreciated');
    negative('@Air love the crew but the delay was awful');
  });

  test('a disruption named as the setting of thanks is not the complaint', () => {
    positive('@Air thanks for the free snacks during the delay 🙏');
    negative('@Air no water during the delay');
  });

  test('taking care of a problem solves it', () => {
    positive('@Air thank you for taking care of my lost bag so fast');
    negative('@Air customer care lost my bag');
  });

  test('praise idioms the lexicons miss are praise, and never offset a complaint', () => {
    positive('@Air shout out to Dev at the Seattle desk, absolute legend');
    positive('@Music the new recommendations are spot on');
    positive('Station staff went above and beyond when my mum fell on the platform.');
    negative('Shout out to the crew for losing my bag. Thanks.');
    for (const [pattern, weight] of PRAISE_PHRASES) {
      assert.ok(weight > 0, pattern);
      for (const seq of expandPattern(pattern)) positive(`Update from me: ${seq.join(' ')} the team.`);
    }
  });

  test('the absence of a problem is praise, unless hypothetical, asked about or ended "until" now (version 9)', () => {
    // VADER reads the negated problem word as negative or neutral.
    assert.ok(compound('No problems at all.') < -0.05);
    positive('No problems at all.');
    positive('I have had no problems with this phone');
    positive('@Air never had an issue with you guys');
    positive("@Bank haven't had any problems since the update");
    positive('No complaints!');
    positive('The move went without a hitch');
    for (const [pattern, weight] of ABSENCE_PHRASES) {
      assert.ok(weight > 0, pattern);
      for (const seq of expandPattern(pattern)) positive(`Update from me: ${seq.join(' ')} so far.`);
    }
    neutral('@Air if there are no issues with the booking I will fly on Monday');
    neutral('@Air is there no problem with the wifi on this route?');
    negative('@Bank never had an issue until today, now my card is declined');
    negative('@Air I have no issue with the seat but the 3 hour delay was awful');
    neutral('@Air no delays reported so far');
  });

  test('no one to be reached, and effort counted in time, are complaints (version 8)', () => {
    negative("@Air can't get through to anyone on the phone");
    negative('@Air why can I not get through to anyone on the phone');
    negative("@Air couldn't get ahold of anybody all weekend");
    negative('@Air been trying to call for two days');
    negative('@Air tried to reach someone for 3 hours yesterday');
    negative('@Air been trying to speak to someone for 45 minutes');
    positive('@Air got through to someone straight away and she sorted it all, thank you');
    neutral('@Air if I tried to call for 10 minutes, does that count as contacting you?');
  });

  test('a product or a rule in the way is a complaint; "let me down" and "let me know" are not that (version 8)', () => {
    negative("@Air the app won't let me check in");
    negative("@Air your website doesn't let me change my seat");
    negative('@Air the kiosk would not let us print boarding passes');
    negative("@Air the gate agent didn't let us board with a ticket");
    neutral("@Air if the app doesn't let me check in online, can I do it at the desk?");
    neutral('@Air will you let me know if the gate changes?');
    positive('@Air the app let me check in and pick a seat in a minute, nice');
    // "didn't let me down" is left to VADER, which reads it as neither
    assert.ok(mentionScore("@Air you didn't let me down, landed early") > -0.05);
  });

  test('a short verdict after a complaint is sarcasm; a longer one, or one with a contrast word, is praise (version 10)', () => {
    negative('@Shop parcel arrived smashed, glass everywhere. great packaging');
    negative('@Air lost my bag again. really appreciate it');
    positive('@Air flight was delayed 2 hours. The gate agent was great and found us all seats together');
    assert.ok(mentionScore('@Air delayed 3 hours. great crew though') > -0.05);
  });

  test('thanks for a harm is sarcasm, thanks for a fix is gratitude (version 10)', () => {
    negative('@Air thanks for losing my stroller');
    negative('@Bank thank you for wasting my whole afternoon');
    positive('@Air thanks for finding my bag so quickly');
  });

  test('durations and repetitions are narrative cues; silence and unannounced changes are complaints (version 10)', () => {
    negative("@Shop my refund has been 'approved' for the past 3 weeks");
    negative('@Telco emailed 4 times, the same reply every time');
    negative('@Air zero communication at gate B4');
    negative("@Telco you changed my plan and didn't tell me");
    negative('@Air paid for extra legroom and got a middle seat. what am I paying for');
    negative('@Hotel anyone home? third email this week');
    negative('@Air pressed the call button, nothing happened');
    // one cue alone is no complaint
    neutral('@Air I have flown with you 3 times');
    neutral('@Air will you tell me if the gate changes?');
  });

  test('a mild positive word in an information question is what is asked about, not praise (version 10)', () => {
    neutral('@Air is there a way to join the waiting list from the app?');
    neutral('@Bank can I join the rewards program online?');
    neutral('@Hotel is late checkout possible for loyalty members?');
    // strong praise, and a question that is not an information question, stay VADER's
    positive('@Air is the new lounge at JFK amazing?');
    positive('@Air I love the new lounge, is it open on Sundays?');
  });

  test("harms reported without a sentiment word are complaints; the writer's own plan is not (version 12)", () => {
    negative('@Air thanks for making me miss my meeting');
    negative('@Air love that I missed my cruise');
    negative('@Air my seat was given away even though I checked in');
    negative('@Hotel you gave away our room at 9pm');
    negative('@Air your system double booked my seat');
    negative('@Air the crew ran out of drinks before row 20');
    negative('@Telco I keep getting sent to voicemail');
    negative('@Air my flight got moved to 6am without any notice');
    negative("@Air I can't believe you charge for water");
    negative('@Air seat has no window and no recline, nice');
    negative('@Air the tray table is sticky');
    // planning one's own change is no complaint, whatever words it shares with one
    neutral('@Air I need to cancel my trip next month');
    neutral('@Air I want to cancel my booking for Friday and rebook');
    // negated, an item that ran out is not missing
    neutral('@Air never ran out of snacks on my flights');
  });

  test('"you guys rock" is praise (version 12)', () => {
    positive('@Air you guys rock');
    positive("@Air y'all rock");
  });
});
