/**
 * The complaint layer: what VADER misses in customer complaints, as a correction to a text's VADER sum.
 *
 * VADER is a general social-media lexicon. In posts written to or about a company it misreads three things:
 *  1. complaint phrases with no lexicon weight ("never answers", "ripoff", "on hold", "lost my bag",
 *     "still waiting", "cancelled", "refund"), including implicit complaints that name a disruption or a
 *     failure without any sentiment word ("been on hold 45 min", "where is my bag", "gate changed 3 times",
 *     "your website is down", "why do you keep changing my itinerary");
 *  2. service and courtesy words it scores positive ("support", "help", "please", "thanks", "like") although
 *     they name the service or are politeness, not praise;
 *  3. praise words used sarcastically ("great, another delay", "love waiting on hold", "thanks for nothing");
 *  4. complaints told as a story, where what went wrong is reported rather than judged ("I was told someone
 *     would call back. Nobody did.", "it was supposed to arrive on Monday; three weeks later …").
 *
 * The layer reads a text in one tokenising pass (lower-cased ASCII words, clause ends at . ! ? ; : and line
 * breaks, not inside a time or a decimal: "6:10", "3.5") and one pass over the tokens with precompiled tables (a word → facts map and a phrase trie), and
 * returns Δ, a correction in VADER's own units (word valences, −4 … +4, summed before VADER normalises).
 * `mentionScore` in sentiment.ts adds Δ to the VADER sum. The rules (docs/metrics.md, "Complaint layer"):
 *
 *  - **Phrases.** Each phrase has a weight w (a valence on VADER's scale). At each token the longest phrase
 *    starting there matches; matches do not overlap. A match replaces the valences VADER gave its own words
 *    by w: Δ += w·b − Σ v(word), where v(word) is the word's lexicon valence as VADER applies it (× −0.74 when a
 *    lower-case negator is among the 3 words before it; × 0.5 before the first "but", × 1.5 after it) and b
 *    is the same "but" factor at the phrase's start. NEUTRAL_PHRASES have w = 0 ("noise cancellation", "no
 *    delays", "help desk"). ABSENCE_PHRASES ("no problems", "never had an issue") are praise (version 9),
 *    weighing 0 when hypothetical, asked about or followed by "until" in their clause.
 *  - **Negation and hypotheticals.** A COMPLAINT_PHRASES match with a negator ("not", "no", "never", "any",
 *    "without", any "n't" word, …) among the 3 words before it in its clause is not a complaint and is left to
 *    VADER ("wasn't delayed", "no delays"); with a hypothetical marker ("if", "whether", "avoid", "may",
 *    "in case", "expect", …) among the 4 words before it in its clause its weight is 0 ("if my flight is
 *    cancelled"). SELF_CONTAINED_PHRASES carry their own negation or are sarcasm ("never answers", "no
 *    response", "still waiting", "thanks for nothing"), and REQUEST_PHRASES ask for money back ("refund"):
 *    neither is ever cancelled.
 *  - **Information questions.** A COMPLAINT_PHRASES or REQUEST_PHRASES match in a clause that opens with an
 *    asking word (ASKING_WORDS, after @handles and greetings) and ends with "?" or the text weighs 0 ("is my
 *    flight delayed?", "can I get a refund if I cancel?"), unless "my"/"our" stands right before it ("a refund
 *    for my cancelled flight?") or the clause has a reproach word ("why", "again", "another", "yet", "always").
 *  - **Solved problems.** A COMPLAINT_PHRASES match, or a VADER word of valence ≤ −1.5, within 3 words after
 *    a RESOLUTION_WORDS word of its clause ("found my lost bag", "fixed my problem") weighs 0 and makes no
 *    complaint, unless that word is negated ("haven't fixed") or is "found out".
 *  - **Emphasis.** A phrase written in capitals in a text that is not all capitals gets VADER's capitals
 *    increment (0.733) on its weight ("DELAYED AGAIN"). A hashtag containing a complaint stem (HASHTAG_STEMS:
 *    "#fail", "#neveragain", "#worstairline") weighs −2 (VADER reads hashtags as unknown words).
 *  - **Complaint.** A text is a complaint when its phrase weights sum to ≤ −1.5, or it holds a VADER word of
 *    valence ≤ −1.5 that is not negated. It is a request when it has a "?" or a REQUEST_WORDS word.
 *  - **Narrative cues** (NARRATIVE_PHRASES: "was told", "supposed to", "three days later", "the same reply",
 *    "instead of", "had to drive", …) weigh NARRATIVE_WEIGHT (−1) each, but only when corroborated: by a
 *    second cue, a phrase of negative weight or a VADER word of valence ≤ −1.5 in the text. Alone, a cue
 *    changes nothing (neutral updates and praise stories use them too: "two days later they called me").
 *    Negators do not cancel a cue ("I was not told" still reports a failure); an information question makes
 *    it no cue. A cue never hides a phrase inside it, and one that overlaps a phrase is not counted twice.
 *    Corroborated cues count towards the complaint sum above.
 *  - **Never scored:** REQUEST_WORDS ("please", "kindly") and DESK_WORDS ("support"): Δ −= v.
 *  - **In a complaint or a request:** SERVICE_WORDS lose their valence (Δ −= v), and so do gratitude words
 *    ("thanks", "appreciate", …) unless "for" follows within 3 words of the clause ("thanks for rebooking me"
 *    is gratitude, "please help, thanks" is courtesy).
 *  - **A story that ends well:** from the clause holding the last RESOLUTION_WORDS word (not negated, not
 *    "found out", not inside a complaint phrase) with no complaint evidence after it, the two rules above and
 *    the sarcasm rule below do not apply: praise after the problem was solved is praise ("My card was
 *    declined. The bank sorted it out within minutes. Really grateful.").
 *  - **Sarcasm, in a complaint:** a praise word (SARCASM_WORDS) is read as negated (its valence × −0.74,
 *    VADER's negation scalar: Δ += (−0.74 − 1)·v) when a phrase of weight ≤ −1.5 starts within the 5 words
 *    after it in its clause with no contrast word ("but", "though", …) between ("love waiting on hold",
 *    "thanks for the 3 hour delay", "great, another delay"), or when it stands as a clause of its own (only
 *    fillers such as "oh", "just", "job", handles and names — a capital then lower case, not first in the
 *    clause: "Thanks Zipline, great job." — beside it) with no contrast word between it and some such phrase
 *    ("Delayed again. Great.", but not "Delayed, but the crew kept us informed. Great job.").
 *    Words VADER already negated are left alone.
 *
 *  - **Short posts** (version 5). A waiting word ("waiting", "sat", "stuck", …) with a duration anywhere in
 *    its clause weighs −2 at the duration unless negated, hypothetical or asked about ("waiting for my bags
 *    for over an hour"). A negative VADER word in a question clause loses its valence and makes no complaint
 *    when a hypothetical marker stands before it, or, if milder than −1.5, when the clause is an information
 *    question ("what happens if I miss my first leg?", "what time do drivers stop delivering?"); a clause that
 *    opens with "if" and ends with "?" is an information question. A quotation of at most 3 words is a
 *    narrative cue (a scare quote: 'my parcel is "out for delivery"'); in a text that opens with an @handle,
 *    one of at most 8 words is a complaint of its own (QUOTED_WEIGHT, version 11) unless all its words are
 *    names, it is asked about, or the writer praises outside it; in a complaint or request, praise
 *    words inside a quotation of at most 8 words lose their valence. A contrast word ("but", "however",
 *    "though", "although") after the last complaint evidence settles the text from there, like a resolution
 *    word ("delayed an hour but the captain kept us informed. Appreciated."); "care" after "take" is a
 *    resolution word. PRAISE_PHRASES ("shout out to", "spot on") carry a positive weight and never count
 *    towards a complaint.
 *
 * A text the layer read (any phrase, even at weight 0, a hashtag, a corrected word) is `matched`: the
 * insight classifier then trusts the corrected VADER score alone. `readSentences` reads a text the same way
 * and credits Δ to its sentences (each with its own "but"), for insights' sentence-by-sentence reading.
 *
 * The phrase list was written from general knowledge of customer-complaint language (support, billing,
 * delivery, product failures, travel disruption), not derived from any evaluation data; the narrative cues
 * and phrases added with them were checked against the team-written `dev-narratives` posts, and the
 * short-post rules against `development-3` (scripts/eval/customer-posts.ts), never against the held-out sets.
 */
import { createRequire } from 'node:module';
import { C_INCR, N_SCALAR, NEGATE } from './vader.ts';

const require = createRequire(import.meta.url);
/** A word list written as whitespace-separated words. */
const words = (list: string): string[] => list.trim().split(/\s+/);
const { lexicon } = require('vader-sentiment/src/vader_lexicon.js') as { lexicon: Record<string, number> };

// ---------------------------------------------------------------------------------------------------------
// The lexicon. Pattern syntax: words separated by spaces; `a|b` alternatives for one word; `[a|b]` an optional
// word; `#` any number (digits, "3rd", or a number word); `$` (first word only) a number in digits; `*` any one
// word. Weights are VADER valences.

/** Complaint phrases that a negator or a hypothetical marker before them cancels. */
export const COMPLAINT_PHRASES: readonly (readonly [pattern: string, weight: number])[] = [
  // travel and delivery disruption
  ['delayed|delay|delays|delaying', -1.8],
  ['# minute|minutes|min|mins|hour|hours|hr|hrs|h|day|days delay|delayed|late', -2],
  ['running|arrived|arriving|departed|departing|left|leaving|always|again late', -1.5],
  ['late again|arrival|departure|flight|flights|train|delivery|deliveries|shipment', -1.5],
  ['cancelled|canceled|cancellation|cancellations', -1.8],
  // efforts counted in time ("been trying to call for two days", "tried to reach someone for 3 hours")
  [
    'trying|tried to call|reach|contact|phone|ring|email|speak|talk [to|with] [someone|anyone|somebody|anybody|you|support] for # minute|minutes|min|mins|hour|hours|day|days|week|weeks',
    -2,
  ],
  // a product or a rule in the way ("the app won't let me check in", "it didn't let us board"), not "didn't
  // let me down"
  [
    "won't|wont|doesn't|doesnt|didn't|didnt|wouldn't|wouldnt let me|us check|change|choose|select|add|book|rebook|pay|log|sign|print|use|pick|board|cancel|upgrade|access|download|open|transfer|move|sit|on|in|through",
    -1.8,
  ],
  [
    'will|would|does|did not let me|us check|change|choose|select|add|book|rebook|pay|log|sign|print|use|pick|board|cancel|upgrade|access|download|open|transfer|move|sit|on|in|through',
    -1.8,
  ],
  // VADER's own weight, so that hypotheticals and questions can set it to 0 ("if I cancel")
  ['cancel|cancels', -1],
  [
    'missed|miss|missing my|our|the connection|connecting|flight|train|bus|ferry|appointment|meeting|wedding|funeral|interview|cruise|concert|event|shift|exam|surgery',
    -2,
  ],
  // a harm the company caused ("thanks for making me miss my meeting")
  ['made|make|makes|making me|us miss|late', -2],
  // what was paid for, handed to someone else ("my seat was given away", "gave away our room")
  [
    'gave|give|given|gives|giving away my|our seat|seats|room|rooms|table|booking|reservation|upgrade|spot',
    -2,
  ],
  [
    'seat|seats|room|rooms|table|booking|reservation|upgrade|spot [was|were|got|has|had] [been] given|gave away',
    -2,
  ],
  ['double booked|booking|bookings|sold', -1.8],
  ['ran|run|runs|running out of', -1.5],
  ['sent|sends|send|sending|went|goes|go|going to voicemail', -1.5],
  ['misconnect|misconnected', -2],
  ['stranded', -2.5],
  ['stuck at|in|on|with', -2],
  ['sitting|sat|waiting|waited|held|trapped on the tarmac|runway', -2],
  ['diverted', -1],
  ['overbooked|oversold', -1.8],
  ['bumped from|off', -2],
  ['bumped me|us', -2],
  ['downgraded|downgrade|downgrading', -1.8],
  // "late" only where it describes the service ("is late", "flight late"), not the hour ("late night")
  ['is|was|are|were|been|being|so|very|super|too|always late', -1.5],
  [
    'flight|flights|plane|planes|train|trains|bus|buses|driver|package|order|crew|pilot|everything late',
    -1.5,
  ],
  [
    'cancel|cancels|cancelling|canceling my|our|the|a flight|flights|reservation|booking|trip|order|appointment',
    -1.8,
  ],
  ['denied boarding', -2.5],
  [
    'lost|losing|lose|misplaced my|our|his|her|their|the|a bag|bags|luggage|baggage|suitcase|suitcases|package|parcel|order|stroller',
    -2.3,
  ],
  ['lost bag|bags|luggage|baggage|suitcase|package|parcel', -2.3],
  [
    'bag|bags|luggage|baggage|suitcase|package|parcel|order|delivery|box|item|items|parts|pieces|contents [is|was|are|were|got|still|has|been] lost|missing|damaged|late|delayed|broken|crushed|smashed|cracked|soaked|torn|ripped|destroyed',
    -2.3,
  ],
  [
    'arrived|arrives|came|comes|showed [back|up] damaged|broken|crushed|smashed|cracked|soaked|torn|ripped|destroyed|cold|open|opened',
    -2,
  ],
  ['says|said|shows|showed|showing|marked [as] delivered', -1.5],
  ['locked out', -2],
  [
    'my|our bag|bags|luggage|baggage|suitcase|suitcases|package|parcel|order|refund is|are|was|were still',
    -1.8,
  ],
  [
    'card|payment|payments|transaction|purchase|transfer|bill|bills|debit|debits|cheque|cheques [was|were|got|is|keeps|kept|getting|being] declined|rejected|blocked|frozen|bounced',
    -2,
  ],
  [
    'bill|bills|price|prices|fee|fees|rate|rates|premium|fare|fares|cost|costs|subscription [has|have|just] doubled|tripled|skyrocketed|increased|jumped',
    -1.8,
  ],
  [
    'bill|bills|price|prices|fee|fees|rate|rates|premium|fare|fares|cost|costs|subscription went|goes up',
    -1.8,
  ],
  ['wrong order|item|size|colour|color|address|package|parcel|bag|seat|charge|amount|meal', -1.5],
  ['sleep|sleeping|slept in|at the airport|terminal|gate', -2],
  ['spend|spent|spending the night in|at the airport|terminal|gate', -2],
  // product failures
  ['crash|crashes|crashed|crashing', -2],
  [
    'keeps|kept|keep crashing|freezing|failing|dropping|disconnecting|closing|restarting|rebooting|breaking|buffering|lagging|logging|giving|showing|throwing|saying|asking|telling|sending|charging|changing|cancelling|canceling|delaying|moving|pushing|bumping|redirecting|rejecting|declining|timing|getting',
    -2.3,
  ],
  ['freezes|froze', -1.5],
  ['glitch|glitches|glitchy|buggy|laggy|buffering|lagging', -1.5],
  ['stopped|stops|quit working|responding|charging|loading', -2.3],
  ['unusable', -2.3],
  ['outage|outages', -2],
  ['down again', -2],
  ['down all day|night|morning|afternoon|evening|week|weekend', -2],
  ['been down', -1.8],
  ['is|are|was|were|currently|totally|completely down', -1.8],
  [
    'site|website|app|server|servers|service|system|systems|network|internet|wifi|platform|portal [went|goes|going|gone|keeps|kept|has|had] down',
    -1.8,
  ],
  ['on backorder', -1.5],
  ['on back order', -1.5],
  ['logs|logged|logging me|us out', -1.5],
  ['lost hundreds|thousands|sales|business|customers|revenue|income|wages', -2],
  ['defective|faulty|malfunction|malfunctions|malfunctioning|malfunctioned', -2],
  ['ate|eaten|eats|swallowed my|our|the card|ticket|tickets|pass|boarding|money|cash|coins|payment', -1.8],
  ['my|our * is|are|was|were|went missing|stolen', -2],
  [
    'my|our headphones|phone|laptop|wallet|passport|stuff|belongings|things|items|money|jacket|coat|charger|clothes|shoes|gifts|medication|valuables|connection|seat|seats|booking|reservation|upgrade [is|are|was|were|have|has|had] gone',
    -2,
  ],
  ['fell|falling|falls apart', -2],
  ['dead on arrival', -2.5],
  [
    'deleted|deletes|deleting|erased|wiped|lost my|our|all data|files|notes|photos|pictures|work|progress|emails|messages|contacts|history|settings',
    -2,
  ],
  [
    'data|files|notes|photos|pictures|reports|messages|emails|contacts|settings|documents|points|history|progress [is|are|was|were|have|has|all] gone|disappeared|vanished|wiped|deleted',
    -2,
  ],
  ['waste of money|time', -2.3],
  ['wasted my|our|an time|money|day|evening|morning|afternoon|weekend|hour|hours', -2.3],
  // money
  ['ripoff|ripoffs', -2.5],
  ['overpriced', -1.8],
  ['rip off|offs', -2.5],
  ['ripped|ripping off', -2.5],
  ['ripped|ripping me|us|people|customers off', -2.5],
  ['scammed|scammers|scamming|scammy', -2.7],
  ['overcharged|overcharging|overcharge', -2.2],
  ['charged|billed|debited me|us twice|double', -2.2],
  ['charged|billed|taken|debited|deducted|collected|withdrawn twice|double', -2.2],
  ['double charged|billed|charging', -2.2],
  // billed for what was sent back, cancelled or never had ("billed for a phone I returned")
  ['charged|billed [me|us] for [a|an|the|my|our] * [that|which] i|we returned|cancelled|canceled|never', -2],
  ['hidden|junk|surprise fees|fee|charges', -2],
  ['bait and switch', -2.5],
  // a fee quoted with its amount is almost always a protest at it ("a $40 fee for a carry-on?")
  ['$ [*] fee|fees|surcharge|surcharges', -1.5],
  ['price|prices gouging', -2.5],
  ['gouging|gouged', -2.5],
  // waiting and reaching support
  ['on hold', -2],
  ['# minute|minutes|min|mins|hour|hours|hr|hrs|h on hold|call|tarmac|runway', -2],
  ['# minute|minutes|min|mins|hour|hours|hr|hrs|h on the phone|line|tarmac|runway', -2],
  ['# minute|minutes|min|mins|hour|hours|hr|hrs|h in line|queue', -2],
  ['# minute|minutes|min|mins|hour|hours|hr|hrs|h in|on the|a * line|queue|plane|aircraft', -2],
  ['# minute|minutes|min|mins|hour|hours|hr|hrs|h on|in the|a plane|aircraft|chat', -2],
  [
    'sitting|sat|waiting|waited|stuck|trapped|held on|in the|a plane|aircraft for # minute|minutes|min|mins|hour|hours|hr|hrs|h',
    -2,
  ],
  // a duration that is still running ("2 hours now", "3 days straight", "5 hours so far")
  ['# minute|minutes|min|mins|hour|hours|hr|hrs|h|day|days|week|weeks|month|months now|straight', -1.5],
  ['# minute|minutes|min|mins|hour|hours|hr|hrs|h|day|days|week|weeks|month|months so far', -1.5],
  // the duration first ("45 min waiting for a gate", "2 hours stuck in the queue")
  [
    '# minute|minutes|min|mins|hour|hours|hr|hrs|h|day|days waiting|sitting|stuck|standing|queuing|queueing',
    -2,
  ],
  [
    '# minute|minutes|min|mins|hour|hours|hr|hrs|h past|after|behind departure|boarding|schedule|scheduled|takeoff',
    -1.5,
  ],
  [
    '# minute|minutes|min|mins|hour|hours|hr|hrs|h at|in the|a gate|airport|counter|desk|carousel|terminal|station|lobby|queue|line',
    -2,
  ],
  ['# minute|minutes|min|mins|hour|hours|hr|hrs|h at|in baggage|security|customs|immigration', -2],
  // a wait named by its length ("the 3 hour wait", "a 40 minute queue"); not "layover", which is planned
  ['# minute|minutes|min|mins|hour|hours|hr|hrs|h wait|waits|queue|queues|line|lines|hold', -1.8],
  ['hold time|times|music', -1.2],
  ['wait time|times', -1],
  ['long|endless wait|waits|line|lines|queue|queues', -1.5],
  ['hung|hangs|hanging up', -2.2],
  ['call|calls dropped', -1.8],
  ['dropped call|calls', -1.8],
  // having to repeat oneself, or being moved about ("called 6 times", "gate changed 3 times")
  [
    'transferred|called|emailed|asked|messaged|changed|moved|rescheduled|pushed|postponed|contacted|phoned|rang|complained|chased|reported # times|time',
    -1.8,
  ],
  [
    'transferred|called|emailed|asked|messaged|contacted|phoned|rang|complained|chased|reported|sent|explained|written|wrote [it|this|them|proof|everything] twice',
    -1.8,
  ],
  ['the runaround', -2],
  ['the run around', -2],
  ['waited|waiting # minute|minutes|min|mins|hour|hours|hr|hrs|h|day|days|week|weeks|month|months', -2],
  [
    'waited|waiting for|over # minute|minutes|min|mins|hour|hours|hr|hrs|h|day|days|week|weeks|month|months',
    -2,
  ],
  ['waited|waiting for hours|days|weeks|months|ages|forever', -2],
  ['waited|waiting forever|ages', -2],
  ['sitting|sat|stuck|standing|stood|queuing|queueing|queued [here|there] forever|ages', -2],
  ['tarmac|runway for|over [over|nearly|almost|about] # minute|minutes|min|mins|hour|hours|hr|hrs|h', -2],
  // days counted without something ("day 3 without my bag", "4 days without internet")
  ['day # without', -2],
  [
    '# day|days|week|weeks without my|our|any|power|internet|wifi|signal|service|water|heat|heating|luggage|bags|phone',
    -2,
  ],
  ['waited|waiting all day|night|morning|afternoon|evening|week', -2],
  ['whole|entire day|morning|afternoon|evening|weekend|saturday|sunday|week waiting', -2],
  ['left me|us short|stranded|without', -1.8],
  ['ignored|ignoring|ignores|ignore me|us|my|our|every|all|customers|messages|emails|calls|complaints', -2],
  ['why does|did|do|would it take', -1.5],
  // a "why" question put to a company is a reproach more often than a question ("why is my bag in Denver")
  [
    "why is|are|was|were|isn't|isnt|wasn't|wasnt|aren't|arent|do|does|did|don't|dont|doesn't|doesnt|didn't|didnt|can't|cant|won't|wont|would|should|has|hasn't|hasnt|have|haven't|havent|must|am you|your|my|our|we|i|it|this|that|there|nobody|no|every|everything|everyone|nothing|so|a|an|the",
    -1,
  ],
  ['why no|every|my|our|your', -1],
  ['why take|charge|sell|advertise|promise|offer|bother', -1.5],
  ['takes|took|taking forever|ages', -1.8],
  ['been waiting', -1.5],
  ['kept|keep|keeps me|us|customers|people waiting', -2],
  ['kept waiting', -2],
  ['left on read', -1.8],
  ['unresolved|unanswered', -1.8],
  // leaving, warning others
  [
    'switching|switched|switch carriers|carrier|providers|provider|banks|airlines|airline|networks|companies',
    -1.5,
  ],
  [
    'cancel|cancelling|canceling|cancelled|canceled|closing|close|closed my|our subscription|account|membership|plan|contract|card',
    -1.8,
  ],
  ['lost a|another customer|client', -2.3],
  ['last time i|we fly|flying|use|using|buy|buying|order|ordering|book|booking|shop|shopping', -2],
  ['be|is|was my|our last order|purchase|booking|flight|trip|visit|stay|time', -2],
  ['stay away', -2.3],
  ['steer clear', -2.3],
  ['avoid at all costs', -2.5],
  ['beware', -1.5],
  // judgements VADER lacks
  ['nightmare|nightmares|fiasco|shambles|shambolic|debacle', -2.5],
  ['hassle|headache', -1.5],
  ['ordeal', -2],
  ['fed up', -2.3],
  ['had enough', -1.8],
  ['unhelpful|clueless|unreliable|dismissive|condescending|patronising|patronizing|incompetent', -2],
  ['inexcusable|disgraceful|abysmal|atrocious', -2.5],
  ['subpar|mediocre', -1.8],
  ['cramped|filthy|smelly|stinks|sticky|greasy|moldy|mouldy|stained', -1.5],
  ['zero|0|one|1|no star|stars', -2.3],
  ['for the # time', -1.5],
  ['how hard is it', -1.8],
  ['how hard can it be', -1.8],
  ['why is it so hard|difficult', -1.8],
  ['is this how you treat', -2.3],
  ['how come', -1.2],
  ['how is this|that|it acceptable|ok|okay|possible|legal|fair|allowed', -2],
  ['# time|times this week|month|year|morning|trip', -1.5],
  ['# time|times today', -1.5],
  ['# time|times in a row', -1.5],
  ['is|was the # time|times', -1.5],
  ['yet again|another', -1.5],
  // staff behaviour
  ['refused|refuses|refusing|refuse to', -2],
  ['yelled|yelling|screamed|screaming|shouted|shouting|snapped at', -2],
  ['shrugged|shrugs', -1.5],
  ['walked|walks|walking off|away', -1.5],
  ['rolled|rolls|rolling her|his|their eyes', -1.8],
  ['talked|talking|talks down to', -2],
  ['deal with it', -1.5],
  ['this is how you treat', -2.3],
  ['treated like this|that|dirt|garbage|trash|cattle', -2],
  // told as a story: sent around, left unanswered, things gone wrong
  ['rings|rang|ringing out', -1.5],
  ['straight to voicemail', -1.5],
  ['passed|bounced|shuffled|shunted between|around', -1.8],
  ['fell|falls|falling through', -1.8],
  ['lost|lose|losing the|my|our money', -2],
  ['gives|gave|giving|throws|threw|returns|returned|shows|showed [an|another|the] error|errors', -1.8],
  ['gives|gave|giving|throws|threw|returns|returned|shows|showed the same error|errors', -1.8],
  ['timing|times|timed out', -1.5],
  [
    'threw|thrown|throws|tossed|dumped|chucked my|the|our parcel|package|box|bag|bags|luggage|suitcase|order|delivery',
    -1.8,
  ],
  ['porting|port|ported my|our number out', -1.5],
  ['let me|us|you|customers down', -2],
  ['feel|felt|feeling let down', -2],
  ['messed|mucked|screwed up', -2],
  ['mix up|mixup', -1.5],
  ['jump|jumping through hoops', -1.8],
  ['out of pocket', -1.8],
  ['left|kept in the dark', -2],
  ['left hanging', -1.8],
  ['misinformed|misinformation', -1.8],
  ['call|chat|line [was|got|keeps|kept] disconnected|cut', -1.8],
  [
    'filed|lodged|raised|made|submitted|opened a|an formal|official complaint|complaint|dispute|chargeback',
    -1.5,
  ],
];

/** Complaint phrases that carry their own negation, or are requests or sarcasm: never cancelled. */
export const SELF_CONTAINED_PHRASES: readonly (readonly [pattern: string, weight: number])[] = [
  // nobody answers
  [
    'never answers|answer|answered|answering|responds|respond|responded|replies|reply|replied|calls|called|picks|picked|followed|showed|shows|came|comes|arrived|arrives|received|delivered|fixed|resolved|refunded|returned|heard|posted|credited|processed|updated|worked|works|work|turned',
    -2,
  ],
  ['never got|get|gets back|a|an|my|our|any', -2],
  // something done in the writer's name that they never agreed to
  ['never agreed|authorised|authorized|signed|ordered|requested|consented|approved', -2],
  [
    'no|zero response|responses|reply|replies|answer|answers|callback|callbacks|call|follow|followup|resolution|refund|refunds|help|update|updates|explanation|apology|communication|information|info|assistance|support|compensation|contact|notice|warning|hotel|voucher|food|water|wifi|signal|service|internet|power|show|agents|staff|solution|acknowledgement|acknowledgment',
    -2,
  ],
  [
    'no|zero air|ac|heat|snack|snacks|drinks|bathroom|gate|plane|pilot|crew|seats|legroom|recline|window|outlet|outlets|screen|screens|entertainment|pillow|pillows|progress|idea|clue|options|luck|sign|word|confirmation|email|emails|notification|bag|bags|luggage|flights|meal|meals|blankets|communication|update|updates|info|information|explanation|announcement|announcements',
    -2,
  ],
  [
    'no one|body offered|offers|answers|answered|answering|responds|responded|responding|replies|replied|picks|picked|called|calls|cares|cared|showed|shows|helps|helped|knows|knew|came|comes|bothered|bothers|at|from|to|available|did|does|has|had|will|would|could|seems|seemed|ever|told|tells|contacted|explained|returned|turned|followed|checked|listened|listens',
    -2,
  ],
  [
    'nobody offered|offers|answers|answered|answering|responds|responded|responding|replies|replied|picks|picked|called|calls|cares|cared|showed|shows|helps|helped|knows|knew|came|comes|bothered|bothers|at|from|to|available|did|does|has|had|will|would|could|seems|seemed|ever|told|tells|contacted|explained|returned|turned|followed|checked|listened|listens',
    -2,
  ],
  ["haven't|havent|hasn't|hasnt|didn't|didnt|not|never heard|hear back", -2],
  [
    "haven't|havent|hasn't|hasnt|didn't|didnt|not|never received|gotten|got|get a|any|my|our response|reply|answer|refund|call|callback|update|email|confirmation",
    -2,
  ],
  [
    "not|isn't|isnt|wasn't|wasnt|aren't|arent|weren't|werent answering|responding|replying|helping|picking|working|loading|delivered|arrived|received|refunded|fixed|resolved",
    -2,
  ],
  [
    "doesn't|doesnt|didn't|didnt|won't|wont|don't|dont|can't|cant|cannot|couldn't|couldnt|not answer|respond|reply|call|help|care|listen|fix|refund|honor|honour|pick|work|load|open|connect|start|boot|arrive|deliver|show|turn|bother|match|budge|accept|cover|waive|recline|flush|sync|install|print",
    -2,
  ],
  ["hasn't|hasnt|haven't|havent|never|not arrived|shipped|moved|updated|changed", -2],
  [
    "hasn't|hasnt|haven't|havent|never|not been fixed|resolved|refunded|delivered|answered|updated|processed",
    -2,
  ],
  ["can't|cant|cannot|couldn't|couldnt get|getting through", -2],
  ["can't|cant|cannot|couldn't|couldnt|won't|wont|refuse|refused|refuses|refusing tell|explain", -1.5],
  [
    "where|where's [is|are] my|our bag|bags|luggage|baggage|suitcase|refund|package|parcel|order|money|delivery",
    -1.8,
  ],
  [
    "can't|cant|cannot|couldn't|couldnt reach|contact|login|log|sign|check|access|cancel|change|book|rebook|use|see|find|pay|print|download|transfer",
    -1.8,
  ],
  ['unable to reach|contact|login|log|sign|check|access|cancel|change|book|rebook|use', -1.8],
  // no one to be reached ("can't get through to anyone", "why can I not get through")
  ["can't|cant|cannot|couldn't|couldnt|not get through|ahold", -1.8],
  ['no way to reach|contact|cancel|get', -2],
  ['not|without telling|informing|notifying|warning|asking me|us|anyone|anybody|passengers|customers', -1.8],
  [
    'without [any|prior|advance|an|a] asking|consent|permission|notice|warning|explanation|apology|reason',
    -1.8,
  ],
  // disbelief at what the company does ("I can't believe you charge for water")
  ["can't|cant|cannot believe you|they|y'all|yall|u|your|ur", -1.5],
  ['without being asked|told|informed|notified|consulted|warned', -1.8],
  [
    'without anyone|anybody contacting|calling|telling|asking|checking|replying|responding|getting|explaining',
    -1.8,
  ],
  ['no reason|explanation given|provided|offered', -2],
  ['nothing they|she|he|anyone|anybody|you could|can do', -1.5],
  // the outcome measured against what was paid for or promised ("not what I paid for")
  ['not what i|we paid|signed|asked|ordered|booked|expected|hoped|wanted', -2],
  ['not the|a * i|we hoped|expected|wanted|paid|signed|booked', -1.8],
  ["not|isn't|isnt|wasn't|wasnt my|our|her|his|their|your problem|job", -2],
  ['does|did|do|said|says|say nothing', -1.5],
  ['lesson learned|learnt', -1.5],
  ['are you serious|kidding|joking', -1.8],
  ["you're|youre joking|kidding|serious", -1.8],
  ['you are joking|kidding', -1.8],
  ['gotta|must be joking|kidding', -1.8],
  ['got to be joking|kidding', -1.8],
  ['this is what i|we get', -2],
  ['what am|are i|we supposed to do', -2],
  // telling the company to improve ("fix your app", "do better", "get your act together")
  ['fix your|ur', -1.5],
  ['do better', -1.8],
  ['get your|ur act together', -2],
  ['get it together', -1.8],
  [
    'no one|body is|was|are|were answering|responding|replying|picking|helping|listening|here|there|around|available',
    -2,
  ],
  [
    'nobody is|was|are|were answering|responding|replying|picking|helping|listening|here|there|around|available',
    -2,
  ],
  // chasing a case already open ("any update on my bag?")
  ['any update|updates|news|word|progress on|about|regarding|for my|our', -1.5],
  // a question that doubts the company does its job at all ("do you guys even read your DMs")
  [
    "you|anyone|anybody|they|y'all [guys|people|folks] even read|care|check|know|have|try|listen|look|bother|answer|reply|respond|exist|monitor",
    -1.8,
  ],
  ['no|zero hot|running|drinking|clean|cold water', -2],
  ['no|zero working|functioning', -2],
  ["what is|what's|whats going on", -1.5],
  [
    "where is|are|where's|wheres the|our|my crew|pilot|pilots|plane|agent|agents|staff|driver|technician|tech|captain|attendant|attendants",
    -1.5,
  ],
  ['is anyone|anybody going|listening|working|home|there|even|actually|ever', -1.5],
  // "anyone home?" asked of a company; "I pressed it and nothing happened"
  ['anyone|anybody home', -1.5],
  // paying for what did not come ("paid for priority boarding and boarded last. what am I paying for")
  ['what am i paying for', -2],
  ['what are we paying for', -2],
  // not told of a change ("you moved my flight and didn't email me")
  [
    "didn't|didnt|never email|emailed|tell|told|inform|informed|notify|notified|warn|warned|text|texted|call|called me|us",
    -1.8,
  ],
  ['nothing happened|happens|changed|changes', -1.5],
  [
    "still waiting|no|not|nothing|haven't|havent|hasn't|hasnt|didn't|didnt|don't|dont|doesn't|doesnt|can't|cant|cannot|broken|down|missing|stuck|delayed|unresolved|without|charged|unanswered|pending|nobody|late|lost|sitting|showing|shows|says|saying|here|having|getting|dealing",
    -2,
  ],
  ['still on|at|in the|a tarmac|runway|plane|gate|ground|hold|airport|line|queue', -2],
  ['and counting', -1.5],
  ['not worth', -1.8],
  // sarcasm and complaint idioms
  ['thanks|thank|thx for nothing', -2.5],
  ['thank you for nothing', -2.5],
  ['no thanks to', -2],
  ['love that for me|us', -1.5],
  ['to no avail', -2],
  ['radio silence', -2],
  ['for the privilege', -1.5],
  ['no choice|option|alternative but', -1.5],
  ['no longer works|work|working|loads|opens|connects|accepts|honours|honors', -1.8],
  ['so much for', -1.5],
  ['oh great|joy|wonderful|perfect|fantastic|lovely|goody|brilliant|good', -1.5],
  ['a joke', -2.3],
  ['joke of a', -2.3],
  ['laughable', -2],
  ['never again', -2.5],
  ['never * again', -2.5],
  ['never * * again', -2.5],
  ['never * * * again', -2.5],
  ['never flying|using|buying|ordering|booking|recommending', -2.3],
  ["won't|wont|not be back|flying|using|buying|ordering|booking|returning|recommending", -2.3],
  ["don't|dont|not buy|fly|book|order|bother|recommend|trust", -2.3],
];

/**
 * Asking for money back: a complaint that no negator cancels ("no refund", "never refunded") but that an
 * information question makes neutral ("can I get a refund if I cancel?").
 */
export const REQUEST_PHRASES: readonly (readonly [pattern: string, weight: number])[] = [
  ['refund|refunds|compensation|compensate|reimbursement|reimburse|chargeback', -1],
  ['money back', -1.8],
];

/**
 * Narrative cues: what a customer's story reports when it tells of a failure without judging it ("I was told
 * someone would call back", "it was supposed to arrive on Monday", "three days later", "the same automated
 * reply", "instead of a refund", "now I have to drive to the depot"). Each is circumstantial: common in
 * complaints, but also found in neutral updates and in praise ("two days later they called me"). So a cue
 * weighs NARRATIVE_WEIGHT and counts only when corroborated: when the text holds another narrative cue, a
 * phrase of negative weight, or a VADER word of valence ≤ −1.5 (not negated). An uncorroborated cue changes
 * nothing at all (the text is not even marked as read). Information questions make a cue weigh 0, as they do
 * the negatable phrases; negators do not cancel one ("I was not told" is still a complaint).
 */
export const NARRATIVE_PHRASES: readonly string[] = [
  // being told, promised, sent around
  'was|were|been|being|got told',
  'was|were|been|being promised',
  'promised me|us',
  'supposed to',
  'every|each time',
  'automated|automatic|auto|canned|generic [*] reply|replies|response|responses|message|messages|email|emails',
  'same [*] thing|issue|answer|reply|replies|response|message|excuse|story|document|documents|details|information|form|question|questions',
  'told me|us to',
  // time passing
  '# minute|minutes|hour|hours|day|days|week|weeks|month|months|year|years later',
  'hours|days|weeks|months later',
  '# minute|minutes|hour|hours|day|days|week|weeks|month|months ago',
  'day #',
  'since yesterday|last|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december',
  'take|took|takes|taking # minute|minutes|hour|hours|day|days|week|weeks|month|months',
  // what it cost the writer, or what they got instead
  'for weeks|months',
  'for [the] [last|past] # minute|minutes|min|mins|hour|hours|hr|hrs|day|days|week|weeks|month|months',
  '# times',
  'twice',
  'been # minutes|hours|days|weeks|months',
  'first contacted|reported|called|emailed|wrote',
  // what should have happened, and what happened instead
  'was|were|is|are meant to',
  "should have|should've arrived|been|come|landed|left|called",
  'only to be|find|discover|hear|learn|get',
  'turns|turned out',
  'found|find out at|from|when|today|by|after|on',
  'even after',
  'apparently',
  'would|will call|ring|phone|email|text me|us back',
  'would|will get back to me|us',
  'was|were informed',
  'escalate|escalated|escalation',
  'case|ticket|complaint|reference number',
  'excuses',
  'apologised|apologized|apologising|apologizing|apologies|sorry but',
  'chasing|chased',
  'back and forth',
  // what it cost the writer, or what they got instead
  'instead of',
  'had|have|having to call|ring|chase|redo|fix|drive|go|pay|wait|start|explain|repeat|fill|buy|travel|take|contact',
  'ended up paying|missing|having|buying|sleeping|taking|waiting|spending|renting|driving',
  'was|were|been|got charged',
  'paid for',
  'paid extra|more',
  'charged me|us for',
  'customer|member|client for # years|months',
  'tried to deliver',
  'looking at|for|into alternatives|alternative|another|other',
];
/** The weight of a corroborated narrative cue: below the complaint threshold alone, a complaint with another. */
const NARRATIVE_WEIGHT = -1;

/**
 * Phrases that look like complaints or that VADER misreads but are neither praise nor complaint: weight 0,
 * replacing their words' VADER valences ("noise cancellation", "no problems", "no delays").
 */
export const NEUTRAL_PHRASES: readonly (readonly [pattern: string, weight: number])[] = [
  ['noise cancellation|cancelling|canceling|cancelation', 0],
  ['help desk|center|centre|line|page|team|section', 0],
  // greetings
  ['good morning|afternoon|evening', 0],
  ['customer care', 0],
  ['lost property', 0],
  ['lost and found', 0],
  ['care team|line', 0],
  // the setting of what is told, not the complaint ("thanks for the free snacks during the delay")
  ['during|throughout the|a|our delay|delays|wait|outage|outages|disruption|cancellation|cancellations', 0],
  // a report, not praise ("no delays reported so far")
  ['no|zero|without|never delay|delays', 0],
  // the writer's own plan, not the company's failure ("I need to cancel my trip next month")
  [
    'need|want|have|going|planning|plan to cancel|change|rebook my|our|a trip|flight|flights|booking|reservation|ticket|tickets',
    0,
  ],
];

/** Problem nouns whose absence is praise (ABSENCE_PHRASES). */
const PROBLEMS =
  'problem|problems|issue|issues|complaint|complaints|trouble|troubles|hassle|hassles|fuss|glitch|glitches|hiccup|hiccups';
/**
 * The absence of a problem, told of one's own experience, is praise ("no problems at all", "never had an issue",
 * "went without a hitch", "No complaints!"): a mild positive weight, about what VADER gives a negated problem
 * word. It weighs 0 when it is hypothetical ("if there are no issues"), asked about, or followed in its clause by
 * "until", "till" or "before" ("never had a problem until today").
 */
export const ABSENCE_PHRASES: readonly (readonly [pattern: string, weight: number])[] = [
  [`no|zero|without ${PROBLEMS}`, 1.3],
  [`no|zero real|major|big ${PROBLEMS}`, 1.3],
  [`never had|have a|an|any ${PROBLEMS}`, 1.3],
  [`never a|an ${PROBLEMS}`, 1.3],
  [`not a|one single ${PROBLEMS}`, 1.3],
  [`not one ${PROBLEMS}`, 1.3],
  [`haven't|havent|hasn't|hasnt|didn't|didnt had|have any ${PROBLEMS}`, 1.3],
  ['without a|any hitch|hitches', 1.3],
];

/**
 * Praise idioms neither lexicon knows (wink-nlp even reads "shout" as negative): a positive weight replacing
 * their words' valences, never cancelled, never counted towards a complaint.
 */
export const PRAISE_PHRASES: readonly (readonly [pattern: string, weight: number])[] = [
  ['shout out|outs to', 2],
  ['shoutout|shoutouts to', 2],
  ['spot on', 1.8],
  ['above and beyond', 2.3],
  ["you|u|y'all|yall [guys|all] rock|rocked", 2],
];

/** Words VADER scores positive that in a complaint name the service or are politeness, not praise. */
export const SERVICE_WORDS: readonly string[] = [
  // the service itself
  ...words('help helps care credit credits free reward rewards loyal loyalty special'),
  ...words('save courtesy welcome'),
  // emphasis, not praise ("surely someone can read the notes", "clearly nobody checked")
  ...words('surely certainly clearly definitely'),
  // requests and politeness
  ...words('dear hope hoping want chance resolve solve fair promise promised sure ok okay yes yeah fine'),
  ...words('ready clear accept accepted allow apologise apologize forgive worth matter important cheers'),
  // a discourse marker and laughter VADER reads as praise ("feels like", "wow, 3 hours on hold")
  ...words('like honestly wow lol haha hahaha lmao lmfao'),
];

/** Request markers: politeness, never an opinion, so never scored (and they make a text a request). */
export const REQUEST_WORDS: readonly string[] = ['please', 'plz', 'pls', 'kindly'];

/** Names of the service desk that VADER scores as praise ("customer support"): never scored. */
export const DESK_WORDS: readonly string[] = ['support', 'supported'];

/** Gratitude: courtesy in a complaint unless "for" follows within 3 words (then it thanks for something). */
export const GRATITUDE_WORDS: readonly string[] = words(`
  thanks thank thx ty appreciate appreciated grateful thankful
`);

/** Praise words that complaints use sarcastically ("great, another delay"). */
export const SARCASM_WORDS: readonly string[] = words(`
  great love loved loving loves nice awesome wonderful fantastic perfect brilliant lovely glad happy
  yay cool fun amazing excellent best good classy impressive impressed terrific superb fabulous
  outstanding splendid delightful enjoy enjoyed enjoying favorite hooray woohoo
  exciting helpful thanks thank thx appreciate appreciated
`);

/** Negators that cancel a COMPLAINT_PHRASES match (VADER's list plus a few of its gaps). */
const EXTRA_NEGATORS = ['no', 'zero', 'without', 'never', 'hardly', 'barely', 'nobody', 'any'];
/** Markers that make a following complaint phrase hypothetical. */
const HYPOTHETICAL = words(`
  if whether unless avoid avoided avoiding prevent prevented might may possible possibly potential
  potentially case expect expected expecting risk avoids
`);
/** Words that end the reach of sarcasm within a clause. */
const CONTRAST = ['but', 'however', 'although', 'though', 'except', 'whereas', 'despite', 'still'];
/** Words that may stand beside a praise word in a clause of its own ("Oh great.", "Great job!"). */
const CLAUSE_FILLERS = words(`
  oh just so how real really very ah well yeah simply absolutely truly job work service stuff one move
  experience day guys thanks you
`);
const NUMBER_WORDS = words(`
  a an one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty
  fifty sixty ninety several multiple many second third fourth fifth sixth seventh eighth ninth tenth
  umpteenth nth hundredth millionth
`);

/** Phrase weight at or below which a match is a complaint on its own (context, sarcasm trigger). */
const STRONG_PHRASE = -1.5;
/** A VADER word at or below this valence (not negated) makes a text a complaint. */
const NEGATIVE_WORD = -1.5;
const SARCASM_REACH = 5;
/** Positive words below this valence are mild: in an information question they name, not praise. */
const MILD_PRAISE = 1.5;
/** At most this many other words beside a praise word make a short verdict clause ("great packaging"). */
const SHORT_VERDICT = 2;
const NEGATION_REACH = 3;
const HYPOTHETICAL_REACH = 4;
const GRATITUDE_REACH = 3;

/**
 * Words that say a problem was solved: a complaint phrase within RESOLUTION_REACH words after one of them in
 * its clause weighs 0 ("found my lost bag", "fixed the outage", "handled the delay well", "finally stopped
 * crashing"), unless the word is itself negated ("still haven't fixed the outage") or is "found out".
 */
const RESOLUTION_WORDS: readonly string[] = words(`
  found fixed fixes resolved solved sorted restored recovered retrieved located handled stopped
  refunded reimbursed replaced compensated finding fixing resolving solving sorting restoring recovering
  locating handling refunding replacing
`);
/**
 * Waiting words: with a duration anywhere in their clause ("waiting for my bags for over an hour") they make
 * a complaint phrase of weight WAIT_WEIGHT at the duration, unless negated, hypothetical or asked about.
 */
const WAIT_WORDS = words('waiting waited sitting sat stuck standing stood queuing queueing queued held');
const DURATION_UNITS = new Set(
  words('minute minutes min mins hour hours hr hrs h day days week weeks month months'),
);
const WAIT_WEIGHT = -2;
/** "care" says a problem was solved after one of these ("took care of my lost bag"). */
const TAKE = new Set(words('take takes took taken taking'));
/** Contrast words that turn a text: praise after the last complaint evidence and one of them is praise. */
const TURNS = words('but however though although');
const RESOLUTION_REACH = 3;
/** Words after an absent problem that say it has come now ("no issues until today"), and how far they reach. */
const UNTIL_WORDS = words('until till til before');
const UNTIL_REACH = 4;

/**
 * Words that open an information question ("is my flight delayed?", "how do I report a lost bag?", "can I
 * get a refund?"). In a clause opened by one of them (after @handles and greetings) and ended by "?" or by the
 * end of the text, complaint and money-back phrases weigh 0: the writer asks about a problem, and has not
 * (yet) said it happened to them. "how" asks only as "how long|much|many|soon|early|often" or "how do|does|
 * can|should I|we|my" ("how do you lose a bag?" is a reproach); "what a|an" exclaims ("what a rip-off").
 */
const ASKING_WORDS: readonly string[] = words(`
  is are am will would can could do does should shall has have any what when which who
`);
/** Words skipped before a question's opening word. */
const GREETINGS = words('hi hey hello hiya yo so ok okay um quick question just');
/** After "how": asks for a measure. */
const HOW_MEASURES = new Set(words('long much many soon early often'));
/** After "how": an auxiliary, then a first-person word ("how do I …"). */
const HOW_AUXILIARIES = new Set(words('do does can could should would'));
const FIRST_PERSON = new Set(words('i we my our'));
const POSSESSIVES = new Set(words('my our'));
/** Words that make a question a reproach, not a request for information ("is it delayed AGAIN?"). */
const REPROACH_WORDS = words('why again another yet seriously always');

/**
 * Hashtags that name a complaint in one word ("#fail", "#neveragain", "#worstairline"): a hashtag that is not
 * itself a VADER word and contains one of these stems weighs HASHTAG_WEIGHT, as a complaint phrase.
 */
const HASHTAG_STEMS: readonly string[] = words(`
  fail worst neveragain sucks unacceptable ridiculous disappoint delay cancel stranded lostluggage
  lostbag nightmare ripoff scam terrible horrible awful rude useless joke frustrat angry annoyed
  badservice poorservice nothanks shameonyou
`);
const HASHTAG_WEIGHT = -2;

// ---------------------------------------------------------------------------------------------------------
// Compiled tables

interface PhraseEntry {
  pattern: string;
  weight: number;
  negatable: boolean;
  /** Whether an information question makes the phrase neutral. */
  askable: boolean;
  /** A narrative cue: counts only when corroborated (NARRATIVE_PHRASES). */
  narrative: boolean;
  /** Weighs 0 after a hypothetical marker or before "until" in its clause (ABSENCE_PHRASES). */
  conditional: boolean;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  /** Edge for `#` (any number). */
  num: TrieNode | undefined;
  /** Edge for `*` (any word). */
  any: TrieNode | undefined;
  entry: PhraseEntry | undefined;
}

const F_NEGATOR = 1; // cancels a complaint phrase
const F_VADER_NEGATOR = 2; // negates for VADER
const F_HYPOTHETICAL = 4;
const F_CONTRAST = 8;
const F_SERVICE = 16;
const F_GRATITUDE = 32;
const F_SARCASM = 64;
const F_FILLER = 128;
const F_NUMBER = 256;
const F_FOR = 512;
const F_REQUEST = 1024;
const F_BUT = 2048;
const F_DESK = 4096;
const F_RESOLVED = 8192;
const F_ASKING = 16384;
const F_GREETING = 32768;
const F_REPROACH = 65536;
const F_WAIT = 131072;
const F_TURN = 262144;
const F_UNTIL = 524288; // ends the praise of an absent problem ("never had an issue until today")
/** Words the layer may correct. */
const CORRECTED = F_SERVICE | F_GRATITUDE | F_SARCASM | F_REQUEST | F_DESK;

interface TokenInfo {
  flags: number;
  /** VADER lexicon valence (0 when the word is not in the lexicon). */
  valence: number;
  /** Phrases starting with this word. */
  root: TrieNode | undefined;
}

const newNode = (): TrieNode => ({ next: new Map(), num: undefined, any: undefined, entry: undefined });
/** Phrases starting with a number (`# hours on hold`). */
const NUMBER_ROOT = newNode();
/** Phrases starting with a number written in digits (`$ fee`: "$40 fee", not "a fee"). */
const DIGIT_ROOT = newNode();

/** Every word sequence a pattern stands for (`#` and `*` kept as slots). */
export function expandPattern(pattern: string): string[][] {
  let out: string[][] = [[]];
  for (const slot of pattern.split(' ')) {
    const optional = slot.startsWith('[') && slot.endsWith(']');
    const words = (optional ? slot.slice(1, -1) : slot).split('|');
    const next: string[][] = [];
    for (const seq of out) {
      if (optional) next.push(seq);
      for (const w of words) next.push([...seq, w]);
    }
    out = next;
  }
  return out;
}

const INFO = new Map<string, TokenInfo>();
function info(word: string): TokenInfo {
  let i = INFO.get(word);
  if (i === undefined) {
    i = { flags: 0, valence: lexicon[word] ?? 0, root: undefined };
    INFO.set(word, i);
  }
  return i;
}
function flag(words: readonly string[], f: number): void {
  for (const w of words) info(w).flags |= f;
}

for (const [word, valence] of Object.entries(lexicon)) if (valence <= NEGATIVE_WORD) info(word);

/**
 * VADER's valence of any scored word. The token table above holds only the words the rules need on every
 * text; the question and quotation rules look other words up here, on the few texts they apply to.
 */
function lexiconValence(word: string): number {
  const v = Object.hasOwn(lexicon, word) ? lexicon[word] : undefined;
  return typeof v === 'number' ? v : 0;
}
/** The milder negative words (above NEGATIVE_WORD, so not in the token table unless a phrase holds them). */
const MILD_NEGATIVE = new Map<string, number>();
for (const [word, valence] of Object.entries(lexicon))
  if (valence < 0 && valence > NEGATIVE_WORD) MILD_NEGATIVE.set(word, valence);
flag(NEGATE, F_NEGATOR | F_VADER_NEGATOR);
flag(EXTRA_NEGATORS, F_NEGATOR);
flag(HYPOTHETICAL, F_HYPOTHETICAL);
flag(CONTRAST, F_CONTRAST);
flag(SERVICE_WORDS, F_SERVICE);
flag(GRATITUDE_WORDS, F_GRATITUDE);
flag(SARCASM_WORDS, F_SARCASM);
flag(CLAUSE_FILLERS, F_FILLER);
flag(NUMBER_WORDS, F_NUMBER);
flag(['for'], F_FOR);
flag(REQUEST_WORDS, F_REQUEST);
flag(DESK_WORDS, F_DESK);
flag(['but'], F_BUT);
flag(RESOLUTION_WORDS, F_RESOLVED);
flag(ASKING_WORDS, F_ASKING);
flag(GREETINGS, F_GREETING);
flag(REPROACH_WORDS, F_REPROACH);
flag(WAIT_WORDS, F_WAIT);
flag(TURNS, F_TURN);
flag(UNTIL_WORDS, F_UNTIL);
// The "how" rules read the word after "how".
flag(['how'], F_ASKING);

function addPhrases(
  list: readonly (readonly [string, number])[],
  negatable: boolean,
  askable: boolean,
  narrative = false,
  conditional = false,
): void {
  for (const [pattern, weight] of list) {
    const entry: PhraseEntry = { pattern, weight, negatable, askable, narrative, conditional };
    for (const seq of expandPattern(pattern)) {
      const [first, ...rest] = seq;
      if (first === undefined || first === '*') throw new Error(`A phrase cannot start with *: ${pattern}`);
      let node: TrieNode;
      if (first === '#') node = NUMBER_ROOT;
      else if (first === '$') node = DIGIT_ROOT;
      else {
        const start = info(first);
        start.root ??= newNode();
        node = start.root;
      }
      for (const w of rest) {
        if (w === '#') node = node.num ??= newNode();
        else if (w === '*') node = node.any ??= newNode();
        else {
          let child = node.next.get(w);
          if (child === undefined) {
            child = newNode();
            node.next.set(w, child);
            info(w); // so the word's valence is known when it is replaced
          }
          node = child;
        }
      }
      // The first pattern to claim a sequence keeps it; listing order is the tie-break.
      node.entry ??= entry;
    }
  }
}
addPhrases(COMPLAINT_PHRASES, true, true);
addPhrases(SELF_CONTAINED_PHRASES, false, false);
addPhrases(REQUEST_PHRASES, false, true);
addPhrases(NEUTRAL_PHRASES, false, false);
addPhrases(PRAISE_PHRASES, false, false);
addPhrases(ABSENCE_PHRASES, false, true, false, true);
addPhrases(
  NARRATIVE_PHRASES.map((pattern) => [pattern, NARRATIVE_WEIGHT] as const),
  false,
  true,
  true,
);

// ---------------------------------------------------------------------------------------------------------
// Scanning

/** A text's tokens: lower-cased words (ASCII letters, digits, inner apostrophes), with their clause. */
interface Tokens {
  words: string[];
  infos: (TokenInfo | undefined)[];
  clause: number[];
  /** Whether the word follows "@" or "#" (a handle or a tag). */
  handle: boolean[];
  /** Whether the word follows "#" (a tag). */
  hashtag: boolean[];
  /** Whether the word is a name: written with a capital then lower case, not first in its clause ("Zipline"). */
  name: boolean[];
  /** Offset of the word in the text. */
  start: number[];
  /** How each clause ended, by clause number: the class of its end character, or C_OPEN at the text's end. */
  clauseEnd: number[];
  /** The original text, and whether its offsets match the lower-cased text's. */
  text: string;
  aligned: boolean;
  /** Whether the word was written in lower case (VADER's negators are case-sensitive: "Not" negates nothing). */
  lowerCase: boolean[];
  /** Number of tokens (the arrays are scratch space and may be longer). */
  length: number;
  /** Index of the first token VADER reads as "but" (exactly `but` or `BUT`), −1 when none. */
  butIndex: number;
  exclamations: number;
  questions: number;
  /** Whether any token can start a phrase or be corrected: without one the layer changes nothing. */
  relevant: boolean;
  /** Closed quotations of at most QUOTED_REACH words, as [from, to) token pairs. */
  quotes: number[];
  /** Token where an open double or single quotation starts, −1 when none is open. */
  openDouble: number;
  openSingle: number;
  /** Whether a word has a negative VADER valence (the question rule may then apply). */
  negative: boolean;
}

/** A quotation of at most this many words is a scare quote ("the 'priority' line", 'my "upgrade"'). */
const SCARE_QUOTE = 3;
/** Praise words inside a quotation of at most this many words are the company's words, not the writer's. */
const QUOTED_REACH = 8;
/** The weight of a quotation in a post addressed to a company: a complaint on its own (STRONG_PHRASE). */
const QUOTED_WEIGHT = -1.5;

/** Whether every word of the quotation [from, to) is a name ("Delta One", "Wanna Get Away"): a title. */
function quotedName(t: Tokens, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!t.name[k]) return false;
  return true;
}

/**
 * Whether a praise word stands outside the quotations starting at `quoted` and is not sarcasm with them as the
 * complaint ('the crew sang "happy birthday" to my daughter, thank you!!' is praise; '… the "freshly cleaned"
 * shower. nice' is not). Requests, desk and service words do not count: they are courtesy or the service's name.
 */
function praiseOutside(
  t: Tokens,
  quoted: readonly number[],
  strong: readonly number[],
  strongWords: readonly number[],
): boolean {
  const inside = new Uint8Array(t.length);
  for (let q = 0; q < t.quotes.length; q += 2) {
    if (!quoted.includes(t.quotes[q]!)) continue;
    for (let k = t.quotes[q]!; k < t.quotes[q + 1]!; k++) inside[k] = 1;
  }
  const evidence = [...strong, ...quoted].sort((a, b) => a - b);
  for (let k = 0; k < t.length; k++) {
    if (inside[k] === 1 || (flagsAt(t, k) & (F_REQUEST | F_DESK | F_SERVICE)) !== 0) continue;
    const v = t.infos[k]?.valence ?? lexiconValence(t.words[k]!);
    if (v <= 0 || vaderNegated(t, k)) continue;
    if (!sarcastic(t, k, evidence, strongWords)) return true;
  }
  return false;
}

/** Whether the text opens with an @handle (after white space): a post written to a company. */
const OPENS_WITH_HANDLE = /^\s*@\w/;
function opensWithHandle(text: string): boolean {
  return OPENS_WITH_HANDLE.test(text);
}

/** Character classes of the lower-cased ASCII range: what the tokenizer does with each code unit. */
const C_OTHER = 0;
const C_LETTER = 1;
const C_DIGIT = 2;
const C_APOSTROPHE = 3;
const C_CLAUSE_END = 4; // . ; : and line breaks
const C_EXCLAMATION = 5;
const C_QUESTION = 6;
/** A clause that runs to the end of the text without a closing mark. */
const C_OPEN = 7;
const CLASS = new Uint8Array(128);
for (let c = 97; c <= 122; c++) CLASS[c] = C_LETTER;
for (let c = 48; c <= 57; c++) CLASS[c] = C_DIGIT;
CLASS[39] = C_APOSTROPHE;
for (const c of '.;:\n') CLASS[c.charCodeAt(0)] = C_CLAUSE_END;
CLASS[33] = C_EXCLAMATION;
CLASS[63] = C_QUESTION;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

// Scratch token arrays, reused by every call (scoring is synchronous and never re-entered).
const SCRATCH: Tokens = {
  words: [],
  infos: [],
  clause: [],
  handle: [],
  hashtag: [],
  name: [],
  start: [],
  clauseEnd: [],
  text: '',
  aligned: true,
  lowerCase: [],
  length: 0,
  butIndex: -1,
  exclamations: 0,
  questions: 0,
  relevant: false,
  quotes: [],
  openDouble: -1,
  openSingle: -1,
  negative: false,
};

/** Closes the quotation that opened at token `from` after the last token pushed. */
function closeQuote(t: Tokens, from: number): void {
  const to = t.length;
  if (to <= from || to - from > QUOTED_REACH) return;
  t.quotes.push(from, to);
  t.relevant = true;
}

/** Appends the word lower[a, b) (apostrophes at its ends dropped: they are quotes). */
function pushWord(
  t: Tokens,
  text: string,
  lower: string,
  aligned: boolean,
  from: number,
  to: number,
  clause: number,
) {
  let a = from;
  let b = to;
  while (a < b && lower.charCodeAt(a) === 39) a++;
  while (b > a && lower.charCodeAt(b - 1) === 39) b--;
  if (b <= a) return;
  const word = lower.slice(a, b);
  const info = INFO.get(word);
  const k = t.length++;
  t.words[k] = word;
  t.infos[k] = info;
  t.clause[k] = clause;
  const before = a > 0 ? lower.charCodeAt(a - 1) : 0;
  t.handle[k] = before === 64 || before === 35;
  t.hashtag[k] = before === 35;
  const c0 = text.charCodeAt(a);
  const c1 = text.charCodeAt(a + 1);
  t.name[k] = aligned && c0 >= 65 && c0 <= 90 && c1 >= 97 && c1 <= 122 && k > 0 && t.clause[k - 1] === clause;
  t.start[k] = a;
  // Apostrophes around words are single quotes ("the 'priority' line"); a closing one alone is a possessive.
  if (a > from && t.openSingle === -1) t.openSingle = k;
  if (b < to && t.openSingle !== -1) {
    closeQuote(t, t.openSingle);
    t.openSingle = -1;
  }
  if (before === 35) t.relevant = true;
  let lowerCase = true;
  if (info !== undefined) {
    if ((info.flags & (F_VADER_NEGATOR | F_BUT)) !== 0 && aligned) {
      const original = text.slice(a, b);
      lowerCase = original === word;
      if (t.butIndex === -1 && (info.flags & F_BUT) !== 0 && (lowerCase || original === 'BUT'))
        t.butIndex = k;
    }
    if (info.root !== undefined || (info.flags & (CORRECTED | F_NUMBER | F_RESOLVED)) !== 0)
      t.relevant = true;
  } else if (isDigit(word.charCodeAt(0))) t.relevant = true;
  t.lowerCase[k] = lowerCase;
}

function tokenize(text: string): Tokens {
  let lower = text.toLowerCase();
  if (lower.includes('\u2019')) lower = lower.replaceAll('\u2019', "'");
  // Lower-casing can change the length of a few non-ASCII strings; then the original case is not consulted.
  const aligned = lower.length === text.length;
  const t = SCRATCH;
  t.length = 0;
  t.text = text;
  t.aligned = aligned;
  t.butIndex = -1;
  t.exclamations = 0;
  t.questions = 0;
  t.relevant = false;
  t.quotes.length = 0;
  t.openDouble = -1;
  t.openSingle = -1;
  t.negative = false;
  let clauseNo = 0;
  let start = -1;
  const len = lower.length;
  for (let p = 0; p <= len; p++) {
    const c = p < len ? lower.charCodeAt(p) : 32;
    const cls = c < 128 ? CLASS[c]! : C_OTHER;
    if (cls >= C_LETTER && cls <= C_APOSTROPHE) {
      if (start === -1) start = p;
      else if (cls === C_LETTER && CLASS[lower.charCodeAt(p - 1)] === C_DIGIT) {
        // "3hrs" → "3" "hrs"; ordinals ("3rd") stay whole.
        let q = p;
        while (q < len && isLetter(lower.charCodeAt(q))) q++;
        const suffix = lower.slice(p, q);
        if (suffix !== 'st' && suffix !== 'nd' && suffix !== 'rd' && suffix !== 'th') {
          pushWord(t, text, lower, aligned, start, p, clauseNo);
          start = p;
        }
      }
      continue;
    }
    if (start !== -1) {
      pushWord(t, text, lower, aligned, start, p, clauseNo);
      start = -1;
    }
    if (c === 34 || c === 0x201c || c === 0x201d) {
      if (t.openDouble === -1) t.openDouble = t.length;
      else {
        closeQuote(t, t.openDouble);
        t.openDouble = -1;
      }
    }
    if (cls < C_CLAUSE_END) continue;
    // A time or a decimal ("6:10", "3.5 hours") is not a clause end.
    if (
      (c === 58 || c === 46) &&
      p > 0 &&
      isDigit(lower.charCodeAt(p - 1)) &&
      isDigit(lower.charCodeAt(p + 1))
    )
      continue;
    if (cls === C_EXCLAMATION) t.exclamations++;
    else if (cls === C_QUESTION) t.questions++;
    // Clause ends: . ! ? ; : and line breaks.
    if (t.length > 0 && t.clause[t.length - 1] === clauseNo) t.clauseEnd[clauseNo++] = cls;
  }
  if (t.length > 0 && t.clause[t.length - 1] === clauseNo) t.clauseEnd[clauseNo] = C_OPEN;
  if (t.questions > 0) {
    for (let k = 0; k < t.length && !t.negative; k++)
      if ((t.infos[k]?.valence ?? MILD_NEGATIVE.get(t.words[k]!) ?? 0) < 0) t.negative = true;
    if (t.negative) t.relevant = true;
  }
  return t;
}

function flagsAt(t: Tokens, k: number): number {
  return t.infos[k]?.flags ?? 0;
}

function isNumberToken(t: Tokens, k: number): boolean {
  return isDigit(t.words[k]!.charCodeAt(0)) || (flagsAt(t, k) & F_NUMBER) !== 0;
}

/** The longest match found so far by `walk` (module scratch, like the tokens). */
let bestEnd = -1;
let bestEntry: PhraseEntry | undefined;

function walk(t: Tokens, node: TrieNode, j: number): void {
  if (node.entry !== undefined && j > bestEnd) {
    bestEnd = j;
    bestEntry = node.entry;
  }
  if (j >= t.length) return;
  const child = node.next.get(t.words[j]!);
  if (child !== undefined) walk(t, child, j + 1);
  if (node.num !== undefined && isNumberToken(t, j)) walk(t, node.num, j + 1);
  if (node.any !== undefined) walk(t, node.any, j + 1);
}

/** The longest phrase match starting at token `at`: its end (exclusive) and entry, or null. */
function longestMatch(t: Tokens, at: number): { end: number; entry: PhraseEntry } | null {
  const root = t.infos[at]?.root;
  const numeric = isNumberToken(t, at);
  if (root === undefined && !numeric) return null;
  bestEnd = -1;
  bestEntry = undefined;
  if (root !== undefined) walk(t, root, at + 1);
  if (numeric) walk(t, NUMBER_ROOT, at + 1);
  if (isDigit(t.words[at]!.charCodeAt(0))) walk(t, DIGIT_ROOT, at + 1);
  return bestEntry === undefined ? null : { end: bestEnd, entry: bestEntry };
}

/** A word with flag `f` among the `reach` words before `at`, in its clause (F_NEGATOR: any "n't" word too). */
function flaggedBefore(t: Tokens, at: number, reach: number, f: number): boolean {
  for (let k = at - 1; k >= 0 && k >= at - reach && t.clause[k] === t.clause[at]; k--) {
    if ((flagsAt(t, k) & f) !== 0) return true;
    if (f === F_NEGATOR && t.words[k]!.includes("n't")) return true;
  }
  return false;
}

/** Whether a word flagged `f` stands among the `reach` words from `from` on, in the clause of the word before it. */
function flaggedAfter(t: Tokens, from: number, reach: number, f: number): boolean {
  const clause = t.clause[from - 1];
  for (let k = from; k < t.length && k < from + reach && t.clause[k] === clause; k++) {
    if ((flagsAt(t, k) & f) !== 0) return true;
  }
  return false;
}

/** VADER's negation of the word at `at`: a (lower-case) negator among the 3 words before it, any clause. */
function vaderNegated(t: Tokens, at: number): boolean {
  for (let k = at - 1; k >= 0 && k >= at - 3; k--) {
    if ((flagsAt(t, k) & F_VADER_NEGATOR) !== 0 && t.lowerCase[k]) return true;
    if (t.words[k]!.includes("n't")) return true;
  }
  return false;
}

function butFactor(t: Tokens, at: number): number {
  // Read by sentence, each sentence has its own "but", as VADER scoring that sentence alone sees it.
  const but = BY_SENTENCE === null ? t.butIndex : BY_SENTENCE.but[BY_SENTENCE.of[at]!]!;
  if (but === -1 || at === but) return 1;
  return at < but ? 0.5 : 1.5;
}

/** The valence VADER gives the word at `at`: its lexicon valence with negation and "but" applied. */
function applied(t: Tokens, at: number): number {
  const v = t.infos[at]?.valence ?? 0;
  // VADER looks "#fail" up as written and finds nothing: a hashtag has no valence for it.
  if (v === 0 || t.hashtag[at]) return 0;
  return v * (vaderNegated(t, at) ? N_SCALAR : 1) * butFactor(t, at);
}

/** A contrast word strictly between tokens a and b. */
function contrastBetween(t: Tokens, a: number, b: number): boolean {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  for (let k = lo + 1; k < hi; k++) if ((flagsAt(t, k) & F_CONTRAST) !== 0) return true;
  return false;
}

/** "for" among the next GRATITUDE_REACH words of the clause ("thanks @x for …", "thank you so much for"). */
function forFollows(t: Tokens, at: number): boolean {
  for (let k = at + 1; k < t.length && k <= at + GRATITUDE_REACH && t.clause[k] === t.clause[at]; k++) {
    if ((flagsAt(t, k) & F_FOR) !== 0) return true;
  }
  return false;
}

/** A word that may stand beside a praise word in a clause of its own: a filler, a handle or a name. */
function filler(t: Tokens, k: number): boolean {
  return t.handle[k]! || t.name[k]! || (flagsAt(t, k) & F_FILLER) !== 0;
}

/**
 * The sarcasm rule for the praise word at `at`, given the starts of strong complaint phrases (ascending):
 * a phrase starting within SARCASM_REACH words after it in its clause with no contrast word between, or the
 * word standing as a clause of its own (with fillers and handles only) with no contrast word between it and
 * some strong phrase ("Delayed again. Great." but not "Delayed, but the crew were kind. Great job.").
 */
function sarcastic(
  t: Tokens,
  at: number,
  strong: readonly number[],
  strongWords: readonly number[],
): boolean {
  for (const s of strong) {
    if (s > at && s <= at + SARCASM_REACH && t.clause[s] === t.clause[at] && !contrastBetween(t, at, s)) {
      return true;
    }
  }
  if (thanksForHarm(t, at)) return true;
  const c = t.clause[at];
  let others = 0;
  let contrast = false;
  for (let k = at - 1; k >= 0 && t.clause[k] === c; k--) {
    if (!filler(t, k)) others++;
    if ((flagsAt(t, k) & F_CONTRAST) !== 0) contrast = true;
  }
  for (let k = at + 1; k < t.length && t.clause[k] === c; k++) {
    if (!filler(t, k)) others++;
    if ((flagsAt(t, k) & F_CONTRAST) !== 0) contrast = true;
  }
  if (others === 0) {
    for (const s of strong) if (!contrastBetween(t, at, s)) return true;
    return false;
  }
  // A short verdict after the complaint, in a clause of its own ("Box arrived crushed. Great packaging 👏",
  // "lost my bag. really appreciate it"): praise of what just failed. A clause with a contrast word ("Great
  // crew though") or more to say is the writer's praise.
  if (others > SHORT_VERDICT || contrast) return false;
  for (const s of [...strong, ...strongWords]) {
    if (s < at && t.clause[s] !== c && !contrastBetween(t, at, s)) return true;
  }
  return false;
}

/**
 * Thanks for a harm: "thanks for losing my bag", "thank you for wasting my time". The word after "for" (within
 * the clause) has a negative valence.
 */
function thanksForHarm(t: Tokens, at: number): boolean {
  if ((flagsAt(t, at) & F_GRATITUDE) === 0) return false;
  for (let k = at + 1; k < t.length && k <= at + GRATITUDE_REACH && t.clause[k] === t.clause[at]; k++) {
    if ((flagsAt(t, k) & F_FOR) === 0) continue;
    const next = k + 1;
    return next < t.length && t.clause[next] === t.clause[at] && (t.infos[next]?.valence ?? 0) < 0;
  }
  return false;
}

/** Whether the word at `k` says a problem was solved: a resolution word, not "found out"; "care" after "take". */
function resolution(t: Tokens, k: number): boolean {
  if ((flagsAt(t, k) & F_RESOLVED) !== 0) return !(t.words[k] === 'found' && t.words[k + 1] === 'out');
  return t.words[k] === 'care' && k > 0 && TAKE.has(t.words[k - 1]!);
}

/**
 * Whether the phrase at `at` is solved: a resolution word (not negated, not "found out") among the
 * RESOLUTION_REACH words before it in its clause.
 */
function resolved(t: Tokens, at: number): boolean {
  for (let k = at - 1; k >= 0 && k >= at - RESOLUTION_REACH && t.clause[k] === t.clause[at]; k--) {
    if (!resolution(t, k)) continue;
    if (!vaderNegated(t, k) && !flaggedBefore(t, k, NEGATION_REACH, F_NEGATOR)) return true;
  }
  return false;
}

/**
 * Where a told problem ends well: the first token of the clause holding the last resolution word (not negated,
 * not "found out", not inside a complaint phrase) when no complaint evidence comes after it ("I panicked …
 * they blocked the card and refunded the money. Really grateful."). Praise from there on is praise, not
 * courtesy or sarcasm. `n` (no such point) when the text has none or a complaint follows it ("they fixed it,
 * then it went down again").
 */
function settledFrom(t: Tokens, lastEvidence: number): number {
  let from = t.length;
  for (let k = t.length - 1; k > lastEvidence; k--) {
    if (!resolution(t, k)) continue;
    if (vaderNegated(t, k) || flaggedBefore(t, k, NEGATION_REACH, F_NEGATOR)) continue;
    from = k;
    while (from > 0 && t.clause[from - 1] === t.clause[k]) from--;
    break;
  }
  // A turn after the last complaint evidence ("delayed an hour but the captain kept us informed.
  // Appreciated.") also settles it from the turn on.
  for (let k = lastEvidence + 1; k < from; k++) if ((flagsAt(t, k) & F_TURN) !== 0) return k;
  return from;
}

/**
 * Whether the clause of token `at` is an information question (see ASKING_WORDS) that asks about the phrase
 * at `at` in general: not when "my" or "our" stands right before it ("can I get a refund for my cancelled
 * flight?" reports the writer's own cancellation).
 */
function asking(t: Tokens, at: number): boolean {
  if (at > 0 && POSSESSIVES.has(t.words[at - 1]!)) return false;
  const c = t.clause[at]!;
  const end = t.clauseEnd[c];
  if (end !== C_QUESTION && end !== C_OPEN) return false;
  let first = at;
  while (first > 0 && t.clause[first - 1] === c) first--;
  let k = first;
  while (k < t.length && t.clause[k] === c && (t.handle[k] || (flagsAt(t, k) & F_GREETING) !== 0)) k++;
  if (k >= t.length || t.clause[k] !== c) return false;
  // A conditional question asks too ("if the flight is cancelled do I get a refund?").
  const conditional = t.words[k] === 'if' && end === C_QUESTION;
  if (!conditional && (flagsAt(t, k) & F_ASKING) === 0) return false;
  // "what a rip-off" exclaims.
  if (t.words[k] === 'what' && (t.words[k + 1] === 'a' || t.words[k + 1] === 'an')) return false;
  if (t.words[k] === 'how') {
    const next = t.words[k + 1];
    const after = t.words[k + 2];
    const measure = next !== undefined && HOW_MEASURES.has(next);
    const firstPerson =
      next !== undefined && HOW_AUXILIARIES.has(next) && after !== undefined && FIRST_PERSON.has(after);
    if (!measure && !firstPerson) return false;
  }
  for (let j = k; j < t.length && t.clause[j] === c; j++)
    if ((flagsAt(t, j) & F_REPROACH) !== 0) return false;
  return true;
}

/** Whether every word from `a` to `b` (exclusive) is written in capitals, in a text that is not all capitals. */
function shouted(t: Tokens, a: number, b: number): boolean {
  if (!t.aligned) return false;
  let letters = false;
  for (let k = a; k < b; k++) {
    const from = t.start[k]!;
    const original = t.text.slice(from, from + t.words[k]!.length);
    if (original !== original.toUpperCase()) return false;
    if (original !== t.words[k]) letters = true;
  }
  return letters && t.text !== t.text.toUpperCase();
}

/** The weight of a hashtag that names a complaint (HASHTAG_STEMS), else 0. */
function hashtagWeight(t: Tokens, k: number): number {
  if (!t.hashtag[k]) return 0;
  const w = t.words[k]!;
  for (const stem of HASHTAG_STEMS) if (w.includes(stem)) return HASHTAG_WEIGHT;
  return 0;
}

interface ComplaintMatch {
  /** The lexicon pattern that matched. */
  pattern: string;
  /** The words it matched. */
  text: string;
  weight: number;
}

interface ComplaintReading {
  /** Correction to add to VADER's sum of valences (0 when the layer changes nothing). */
  delta: number;
  /** Whether the text reads as a complaint (see the rules above). */
  complaint: boolean;
  /**
   * Whether the layer read anything (a phrase, even of weight 0 such as an asked-about "refund", a complaint
   * hashtag, a corrected word): the text is then one where VADER's lexicon alone is known to misread.
   */
  matched: boolean;
  /** "!" and "?" counts, for VADER's punctuation emphasis. */
  exclamations: number;
  questions: number;
}

/**
 * Set while `readSentences` reads a text: which sentence each token is in, each sentence's first "but", and
 * what the reading credits to each sentence. Null otherwise (scoring is synchronous, so a module variable).
 */
interface SentenceTrack {
  /** Token → sentence. */
  of: Int32Array;
  /** Sentence → its first token VADER reads as "but", −1 when none. */
  but: Int32Array;
  /** Sentence → the part of Δ from its tokens. */
  delta: Float64Array;
  /** Sentence → the sum of its phrase weights. */
  phrases: Float64Array;
  /** Sentence → whether it holds a VADER word of valence ≤ −1.5 that counts as a complaint. */
  strongWord: Uint8Array;
}
let BY_SENTENCE: SentenceTrack | null = null;

/** Adds `d` to the Δ of the sentence of token `k` when reading by sentence. */
function credit(k: number, d: number): void {
  if (BY_SENTENCE !== null) BY_SENTENCE.delta[BY_SENTENCE.of[k]!]! += d;
}

function read(text: string, matches: ComplaintMatch[] | null, tokens?: Tokens): ComplaintReading {
  const t = tokens ?? tokenize(text);
  if (!t.relevant)
    return {
      delta: 0,
      complaint: false,
      matched: false,
      exclamations: t.exclamations,
      questions: t.questions,
    };
  const n = t.length;
  let delta = 0;
  let phraseSum = 0;
  /** Tokens whose valence a phrase has replaced. */
  let consumed: Uint8Array | null = null;
  /** Starts of strong phrase matches, ascending. */
  const strong: number[] = [];
  /** Strong negative words read as complaint evidence (outside phrases), ascending. */
  const strongWords: number[] = [];
  let request = t.questions > 0;
  /** Whether the layer read anything in the text (a phrase, a hashtag, a corrected word), even at weight 0. */
  let matched = false;
  /** Narrative cues found, as [start, end) pairs: they count only when corroborated. */
  let narrative: number[] | null = null;
  /** The last token of the last complaint evidence (a negative phrase, hashtag or word), −1 when none. */
  let lastEvidence = -1;

  /** Whether a waiting word stands outside the phrases read (the waiting rule below then looks). */
  let waiting = false;
  for (let i = 0; i < n; ) {
    const f = flagsAt(t, i);
    if ((f & F_REQUEST) !== 0) request = true;
    if ((f & F_WAIT) !== 0) waiting = true;
    const m = longestMatch(t, i);
    if (m === null) {
      const tag = hashtagWeight(t, i);
      if (tag !== 0) {
        delta += tag * butFactor(t, i);
        credit(i, tag * butFactor(t, i));
        if (BY_SENTENCE !== null) BY_SENTENCE.phrases[BY_SENTENCE.of[i]!]! += tag;
        phraseSum += tag;
        if (tag <= STRONG_PHRASE) strong.push(i);
        lastEvidence = i;
        consumed ??= new Uint8Array(n);
        consumed[i] = 1;
        matched = true;
        matches?.push({ pattern: '#tag', text: t.words[i]!, weight: tag });
      }
      i++;
      continue;
    }
    const { end, entry } = m;
    let weight = entry.weight;
    if (entry.narrative) {
      // Held until the whole text is read: it counts only when corroborated. Asked about: not a cue at all.
      // The scan goes on at the next word, so a cue never hides a complaint phrase inside it ("ended up
      // waiting 40 minutes").
      if (!asking(t, i)) {
        narrative ??= [];
        narrative.push(i, end);
      }
      i++;
      continue;
    }
    if (entry.negatable) {
      // Negated: left to VADER ("wasn't delayed"). Hypothetical or solved: no complaint, and no VADER valence
      // either.
      if (flaggedBefore(t, i, NEGATION_REACH, F_NEGATOR)) {
        i++;
        continue;
      }
      if (flaggedBefore(t, i, HYPOTHETICAL_REACH, F_HYPOTHETICAL) || resolved(t, i)) weight = 0;
    }
    if (entry.askable && weight !== 0 && asking(t, i)) weight = 0;
    if (
      entry.conditional &&
      (flaggedBefore(t, i, HYPOTHETICAL_REACH, F_HYPOTHETICAL) || flaggedAfter(t, end, UNTIL_REACH, F_UNTIL))
    )
      weight = 0;
    // Capitals in a text that is not all capitals add VADER's own emphasis (C_INCR) to the phrase.
    if (weight < 0 && shouted(t, i, end)) weight -= C_INCR;
    consumed ??= new Uint8Array(n);
    matched = true;
    let replaced = 0;
    for (let k = i; k < end; k++) {
      consumed[k] = 1;
      replaced += applied(t, k);
    }
    delta += weight * butFactor(t, i) - replaced;
    credit(i, weight * butFactor(t, i) - replaced);
    // Praise phrases never offset a complaint.
    if (BY_SENTENCE !== null) BY_SENTENCE.phrases[BY_SENTENCE.of[i]!]! += Math.min(weight, 0);
    phraseSum += Math.min(weight, 0);
    if (weight <= STRONG_PHRASE) strong.push(i);
    if (weight < 0) lastEvidence = end - 1;
    if (weight !== 0)
      matches?.push({ pattern: entry.pattern, text: t.words.slice(i, end).join(' '), weight });
    i = end;
  }

  // A waiting word with a duration in its clause that no phrase has read ("waiting for my bags for over an
  // hour", "sat at gate 4 for 2 hours").
  for (let k = 0; waiting && k < n; k++) {
    if ((flagsAt(t, k) & F_WAIT) === 0 || consumed?.[k] === 1) continue;
    if (
      flaggedBefore(t, k, NEGATION_REACH, F_NEGATOR) ||
      flaggedBefore(t, k, HYPOTHETICAL_REACH, F_HYPOTHETICAL)
    )
      continue;
    if (asking(t, k)) continue;
    const c = t.clause[k];
    let from = k;
    while (from > 0 && t.clause[from - 1] === c) from--;
    for (let j = from; j + 1 < n && t.clause[j + 1] === c; j++) {
      if (consumed?.[j] === 1 || consumed?.[j + 1] === 1) continue;
      if (!isNumberToken(t, j) || !DURATION_UNITS.has(t.words[j + 1]!)) continue;
      const replaced = applied(t, j) + applied(t, j + 1);
      delta += WAIT_WEIGHT * butFactor(t, j) - replaced;
      credit(j, WAIT_WEIGHT * butFactor(t, j) - replaced);
      if (BY_SENTENCE !== null) BY_SENTENCE.phrases[BY_SENTENCE.of[j]!]! += WAIT_WEIGHT;
      phraseSum += WAIT_WEIGHT;
      strong.push(j);
      if (j + 1 > lastEvidence) lastEvidence = j + 1;
      consumed ??= new Uint8Array(n);
      consumed[j] = 1;
      consumed[j + 1] = 1;
      matched = true;
      matches?.push({
        pattern: 'wait',
        text: `${t.words[k]} … ${t.words[j]} ${t.words[j + 1]}`,
        weight: WAIT_WEIGHT,
      });
      break;
    }
  }

  /** Takes the VADER valence `v` of the word at `k` out of the score (not negated: the "but" factor only). */
  const dropValence = (k: number, v: number): void => {
    const removed = v * butFactor(t, k);
    delta -= removed;
    credit(k, -removed);
    consumed ??= new Uint8Array(n);
    consumed[k] = 1;
    matched = true;
  };

  // A negative word in a question that asks about a case, not one that happened ("what happens if I miss my
  // first leg?", "what time do drivers stop delivering?"): no VADER valence, no complaint. In a conditional
  // clause any such word; in a plain information question only the milder ones (above NEGATIVE_WORD).
  if (t.negative && t.questions > 0) {
    for (let k = 0; k < n; k++) {
      if (consumed?.[k] === 1 || t.clauseEnd[t.clause[k]!] !== C_QUESTION) continue;
      const v = t.infos[k]?.valence ?? MILD_NEGATIVE.get(t.words[k]!) ?? 0;
      if (v >= 0 || vaderNegated(t, k) || t.hashtag[k]) continue;
      if (!flaggedBefore(t, k, HYPOTHETICAL_REACH, F_HYPOTHETICAL) && (v <= NEGATIVE_WORD || !asking(t, k)))
        continue;
      // Not negated (checked above), so VADER applied v with the "but" factor only.
      dropValence(k, v);
    }
  }

  // A mild positive word in an information question names what is asked about, not praise ("is there a way to
  // join the standby list?", "do gift cards expire?", "does flight 112 have entertainment?"): no VADER
  // valence (version 10). Strong praise stays ("is the new lounge nice?" is left to VADER), and so do the words
  // the courtesy rules read.
  if (t.questions > 0) {
    for (let k = 0; k < n; k++) {
      if (t.clauseEnd[t.clause[k]!] !== C_QUESTION) continue;
      // The text is read: a plain question scores as VADER reads it, not averaged with a second lexicon.
      if ((k === 0 || t.clause[k - 1] !== t.clause[k]) && asking(t, k)) matched = true;
      if (consumed?.[k] === 1 || t.hashtag[k]) continue;
      const i = t.infos[k];
      const v = i?.valence ?? lexiconValence(t.words[k]!);
      if (v <= 0 || v >= MILD_PRAISE || ((i?.flags ?? 0) & CORRECTED) !== 0 || vaderNegated(t, k)) continue;
      if (!asking(t, k)) continue;
      dropValence(k, v);
    }
  }

  // Short quotations are scare quotes ("the 'priority' line", 'my parcel is "out for delivery"'): read as
  // narrative cues, counted only when corroborated. In a post addressed to a company (it opens with an
  // @handle), quoting the company back is a protest ('the "premium" meal', 'your chat says "an agent will be
  // with you shortly"'): there a quotation of up to QUOTED_REACH words that is not a name is complaint evidence
  // of its own, unless the writer praises outside it.
  const addressed = opensWithHandle(t.text);
  const reach = addressed ? QUOTED_REACH : SCARE_QUOTE;
  let quoted: number[] | null = null;
  for (let q = 0; q < t.quotes.length; q += 2) {
    if (t.quotes[q + 1]! - t.quotes[q]! > reach || asking(t, t.quotes[q]!)) continue;
    narrative ??= [];
    narrative.push(t.quotes[q]!, t.quotes[q + 1]!);
    if (addressed && !quotedName(t, t.quotes[q]!, t.quotes[q + 1]!)) {
      quoted ??= [];
      quoted.push(t.quotes[q]!);
    }
  }

  let complaint = phraseSum <= STRONG_PHRASE;
  for (let k = 0; k < n; k++) {
    const v = t.infos[k]?.valence ?? 0;
    if (v > NEGATIVE_WORD || consumed?.[k] === 1) continue;
    if (vaderNegated(t, k) || flaggedBefore(t, k, NEGATION_REACH, F_NEGATOR)) continue;
    // A solved problem ("fixed my problem", "sorted out a fraudulent charge") is no complaint, and its word
    // loses VADER's valence as a solved phrase does.
    if (resolved(t, k)) {
      delta -= applied(t, k);
      credit(k, -applied(t, k));
      matched = true;
    } else {
      complaint = true;
      strongWords.push(k);
      if (k > lastEvidence) lastEvidence = k;
      if (BY_SENTENCE !== null) BY_SENTENCE.strongWord[BY_SENTENCE.of[k]!] = 1;
    }
  }
  // Narrative cues, when corroborated by another cue, a complaint phrase or a strong negative word. A cue
  // that overlaps a phrase or an earlier cue is already read.
  if (narrative !== null) {
    const used = consumed ?? new Uint8Array(n);
    const cues: number[] = [];
    for (let c = 0; c < narrative.length; c += 2) {
      const from = narrative[c]!;
      const to = narrative[c + 1]!;
      let free = true;
      for (let k = from; k < to; k++) if (used[k] === 1) free = false;
      if (!free) continue;
      for (let k = from; k < to; k++) used[k] = 1;
      cues.push(from, to);
    }
    const q = quoted;
    const selfEvident =
      q !== null &&
      cues.some((from, c) => c % 2 === 0 && q.includes(from)) &&
      !praiseOutside(t, q, strong, strongWords);
    if (!selfEvident) quoted = null;
    if (cues.length >= 4 || (cues.length > 0 && (phraseSum < 0 || complaint || selfEvident))) {
      consumed = used;
      for (let c = 0; c < cues.length; c += 2) {
        const from = cues[c]!;
        const to = cues[c + 1]!;
        const base = quoted?.includes(from) ? QUOTED_WEIGHT : NARRATIVE_WEIGHT;
        const weight = shouted(t, from, to) ? base - C_INCR : base;
        let replaced = 0;
        for (let k = from; k < to; k++) replaced += applied(t, k);
        delta += weight * butFactor(t, from) - replaced;
        credit(from, weight * butFactor(t, from) - replaced);
        if (BY_SENTENCE !== null) BY_SENTENCE.phrases[BY_SENTENCE.of[from]!]! += weight;
        phraseSum += weight;
        if (to - 1 > lastEvidence) lastEvidence = to - 1;
        matches?.push({ pattern: 'narrative', text: t.words.slice(from, to).join(' '), weight });
        // A quotation that is a complaint on its own is strong evidence for the sarcasm rule ("… the 'freshly
        // cleaned' shower. nice").
        if (base === QUOTED_WEIGHT) {
          strong.push(from);
          strong.sort((a, b) => a - b);
        }
      }
      complaint ||= phraseSum <= STRONG_PHRASE;
    } else if (consumed !== null) {
      // Uncorroborated: the cues' words stay VADER's.
      for (let c = 0; c < cues.length; c += 2) for (let k = cues[c]!; k < cues[c + 1]!; k++) consumed[k] = 0;
    }
  }
  const settled = complaint || request ? settledFrom(t, lastEvidence) : n;
  for (let k = 0; k < n; k++) {
    const i = t.infos[k];
    if (i === undefined || i.valence <= 0 || (i.flags & CORRECTED) === 0 || consumed?.[k] === 1) continue;
    if (vaderNegated(t, k)) continue;
    const f = i.flags;
    const before = delta;
    if ((f & (F_REQUEST | F_DESK)) !== 0) delta -= applied(t, k);
    else if ((!complaint && !request) || k >= settled) continue;
    else if ((f & F_SARCASM) !== 0 && complaint && sarcastic(t, k, strong, strongWords))
      delta += (N_SCALAR - 1) * applied(t, k);
    else if ((f & F_SERVICE) !== 0) delta -= applied(t, k);
    else if ((f & F_GRATITUDE) !== 0 && !forFollows(t, k)) delta -= applied(t, k);
    if (delta !== before) {
      matched = true;
      credit(k, delta - before);
    }
  }
  // In a complaint or a request, a praise word inside a quotation is the company's word, not the writer's
  // ("the lovely email about 'putting members first'"): its valence goes (corrected words were read above).
  if (complaint || request) {
    for (let q = 0; q < t.quotes.length; q += 2) {
      for (let k = t.quotes[q]!; k < t.quotes[q + 1]! && k < settled; k++) {
        if (consumed?.[k] === 1 || ((t.infos[k]?.flags ?? 0) & CORRECTED) !== 0) continue;
        const v = t.infos[k]?.valence ?? lexiconValence(t.words[k]!);
        if (v <= 0 || vaderNegated(t, k)) continue;
        const removed = v * butFactor(t, k);
        delta -= removed;
        credit(k, -removed);
        matched = true;
      }
    }
  }
  return { delta, complaint, matched, exclamations: t.exclamations, questions: t.questions };
}

/** The layer's reading of `text` (see the rules at the top of this file). */
export function readComplaint(text: string): ComplaintReading {
  return read(text, null);
}

/** One sentence of a text as the layer reads it within the whole text (see `readSentences`). */
interface SentenceReading {
  /** The sentence's span in the text: text.slice(from, to). */
  from: number;
  to: number;
  /** The part of the text's Δ that comes from the sentence's words, with the sentence's own "but". */
  delta: number;
  /** Whether the sentence itself holds a complaint: phrase weights ≤ −1.5 or a strong negative word. */
  complaint: boolean;
}

/**
 * Sentence ends: one or more of . ! ? followed by white space or the end of the text, and line breaks. Pieces
 * without a word other than @handles and #tags (a trailing "@Brand") join the sentence before them (or, at the
 * start, the one after them).
 */
function sentenceSpans(text: string, t: Tokens): number[] {
  const spans: number[] = [];
  let from = 0;
  const len = text.length;
  for (let p = 0; p < len; p++) {
    const c = text.charCodeAt(p);
    let end = -1;
    let next = -1;
    if (c === 10) {
      end = p;
      next = p + 1;
    } else if (c === 33 || c === 46 || c === 63) {
      let q = p + 1;
      while (q < len && (text.charCodeAt(q) === 33 || text.charCodeAt(q) === 46 || text.charCodeAt(q) === 63))
        q++;
      if (q === len || /\s/.test(text[q]!)) {
        end = q;
        next = q;
      }
      p = q - 1;
    }
    if (end === -1) continue;
    spans.push(from, end);
    from = next;
  }
  if (from < len) spans.push(from, len);
  // Keep pieces that hold a word (not only handles and tags).
  const kept: number[] = [];
  let k = 0;
  for (let s = 0; s < spans.length; s += 2) {
    let words = false;
    while (k < t.length && t.start[k]! < spans[s + 1]!) {
      if (!t.handle[k]) words = true;
      k++;
    }
    if (words) kept.push(spans[s]!, spans[s + 1]!);
    else if (kept.length > 0) kept[kept.length - 1] = spans[s + 1]!;
    else if (s + 2 < spans.length) spans[s + 2] = spans[s]!;
  }
  return kept;
}

/**
 * The text read as a whole (its complaint, sarcasm, courtesy and resolution rules see every sentence) and
 * credited to its sentences: for each sentence, its span, the part of Δ from its words and whether it holds a
 * complaint itself. For the narrative reading of long texts (insights' classifier); `[]` for an empty text.
 */
export function readSentences(text: string): SentenceReading[] {
  const t = tokenize(text);
  const spans = sentenceSpans(text, t);
  const count = spans.length / 2;
  if (count === 0) return [];
  const track: SentenceTrack = {
    of: new Int32Array(t.length),
    but: new Int32Array(count).fill(-1),
    delta: new Float64Array(count),
    phrases: new Float64Array(count),
    strongWord: new Uint8Array(count),
  };
  let s = 0;
  for (let k = 0; k < t.length; k++) {
    while (s < count - 1 && t.start[k]! >= spans[2 * s + 2]!) s++;
    track.of[k] = s;
    if (track.but[s] === -1 && (flagsAt(t, k) & F_BUT) !== 0) {
      const original = t.aligned ? t.text.slice(t.start[k]!, t.start[k]! + 3) : '';
      if (original === 'but' || original === 'BUT') track.but[s] = k;
    }
  }
  BY_SENTENCE = track;
  try {
    read(text, null, t);
  } finally {
    BY_SENTENCE = null;
  }
  const out: SentenceReading[] = [];
  for (let i = 0; i < count; i++) {
    out.push({
      from: spans[2 * i]!,
      to: spans[2 * i + 1]!,
      delta: track.delta[i]!,
      complaint: track.phrases[i]! <= STRONG_PHRASE || track.strongWord[i] === 1,
    });
  }
  return out;
}

/** The complaint phrases found in `text`, for explanations and tests. */
export function complaintPhrases(text: string): ComplaintMatch[] {
  const matches: ComplaintMatch[] = [];
  read(text, matches);
  return matches;
}
