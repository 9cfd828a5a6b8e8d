// Customer posts for the sentiment evaluation, WRITTEN BY THE CRESTWATCH TEAM for this purpose (not collected
// from any platform, not taken from any data set; brands and flight numbers are invented). They imitate what
// customers post to or about a company: complaints, praise and neutral questions or updates, with the hard
// cases a lexicon meets (courtesy words in complaints, sarcasm, thanks after a problem was solved, questions
// that name a problem without complaining). The label is the team's reading of each post.
//
// Five sets, reported separately:
//  - `development`: written before the complaint layer (src/modules/trends/complaints.ts) was finished and
//    then used while building it: its misses led to general fixes (case-sensitive negators, hypotheticals,
//    "but" before a standalone "Great job.", request courtesy) and to a few phrases ("ignored my", "why does
//    it take", "down all morning", "can't tell me"). Its score is therefore optimistic.
//  - `heldOut`: written after the layer's first version was frozen and never used to change it.
//  - `heldOut2`: 169 short posts written before the implicit-complaint rules (information questions, solved
//    problems, disruption and failure phrases, hashtags, capitals) and never used to change them; measured
//    once before and once after.
//  - `development2`: written after `heldOut2` and used openly while building those rules (optimistic).
//  - `dev-narratives`: 140 long narrative posts (2–6 sentences) written for the narrative rules and used
//    openly while building them (optimistic); see its own comment.
// All are the team's own judgement, not an independent benchmark.

export type PostLabel = 'negative' | 'positive' | 'neutral';

/** The sets, in the order the evaluation reports them. */
export const POST_SETS = [
  'development',
  'held-out',
  'development-2',
  'held-out-2',
  'dev-narratives',
] as const;
export type PostSet = (typeof POST_SETS)[number];

export interface CustomerPost {
  /** The sector the post is about (airline, telecom, software, retail, bank, food). */
  sector: string;
  label: PostLabel;
  text: string;
}

const n = (sector: string, text: string): CustomerPost => ({ sector, label: 'negative', text });
const p = (sector: string, text: string): CustomerPost => ({ sector, label: 'positive', text });
const o = (sector: string, text: string): CustomerPost => ({ sector, label: 'neutral', text });

const DEVELOPMENT: readonly CustomerPost[] = [
  // ---- airlines: complaints
  n(
    'airline',
    '@SkyJetAir flight 412 delayed again. Third time this month. Nobody at the gate knows anything.',
  ),
  n('airline', '@NorthwindAir been on hold for 2 hours trying to rebook a cancelled flight. Unreal.'),
  n('airline', 'Thanks @SkyJetAir for losing my bag on a direct flight. Impressive.'),
  n('airline', '@BlueCrestAir my flight was cancelled and the only option you give me is two days from now?'),
  n('airline', 'Stuck on the tarmac in Denver for 90 minutes with no update from the crew. @NorthwindAir'),
  n('airline', "@SkyJetAir it's been 3 weeks and I'm still waiting for my refund. Please help."),
  n('airline', 'Great, another delay. Love spending my Friday night at gate B12 @BlueCrestAir'),
  n('airline', '@NorthwindAir your customer service line hung up on me twice. Twice.'),
  n(
    'airline',
    'Missed my connection because of your delay and now I have to sleep in the airport. Thanks @SkyJetAir',
  ),
  n('airline', '@BlueCrestAir why does it take 45 minutes for bags to reach the carousel?'),
  n('airline', 'The gate agent was incredibly rude when I asked about my seat. @NorthwindAir'),
  n(
    'airline',
    '@SkyJetAir bag still missing after four days, no one answers the baggage line. Any chance someone can help?',
  ),
  n('airline', "Charged me $150 to change a flight you cancelled. That's a ripoff, @BlueCrestAir"),
  n(
    'airline',
    '@NorthwindAir Cancelled Flight, no hotel voucher, no explanation. Stranded in Chicago with two kids.',
  ),
  n('airline', 'Overbooked again and I got bumped from my flight home. @SkyJetAir you should be ashamed.'),
  n('airline', '@BlueCrestAir the app crashes every time I try to check in'),
  n(
    'airline',
    'Sat at the gate for 3 hours while @NorthwindAir kept pushing the departure time. Never flying with them again.',
  ),
  n(
    'airline',
    '@SkyJetAir my suitcase arrived with a broken handle and a hole in the side. Who do I talk to?',
  ),
  n('airline', "@BlueCrestAir I've sent four messages and still no response about my lost luggage"),
  n('airline', 'Love waiting on hold with @NorthwindAir. Hour three. The music is great.'),
  n(
    'airline',
    '@SkyJetAir paid for extra legroom and got put in a middle seat at the back. Want my money back.',
  ),
  n('airline', 'Worst airline experience of my life. Delayed, then diverted, then cancelled. @BlueCrestAir'),
  n('airline', '@NorthwindAir your website keeps saying error when I try to change my booking'),
  n('airline', 'Flight attendants on @SkyJetAir 221 ignored the call button for the whole flight. Not ok.'),
  n('airline', '@BlueCrestAir I was promised a callback yesterday. Nothing. Thanks for nothing.'),
  n(
    'airline',
    '@NorthwindAir my mother needed wheelchair assistance and no one showed up. She missed the flight.',
  ),
  n('airline', 'Delayed 5 hours and all we got was a $12 food voucher. @SkyJetAir'),
  n('airline', "@BlueCrestAir how is it possible that you can't tell me where my bag is?"),
  n('airline', 'Booked with @NorthwindAir because it was cheaper. Lesson learned, never again.'),
  n(
    'airline',
    '@SkyJetAir 40 minutes on the phone, transferred 3 times, and the call dropped. Fantastic service.',
  ),
  // ---- airlines: praise
  p('airline', '@SkyJetAir crew on flight 88 were wonderful with my toddler. Thank you!'),
  p(
    'airline',
    'Shout out to the @NorthwindAir agent in Boston who rebooked me in two minutes after my flight was cancelled. Hero.',
  ),
  p('airline', '@BlueCrestAir landed 20 minutes early and the bags were already out. Impressed.'),
  p('airline', 'Thank you @SkyJetAir for the upgrade on my birthday, made my day'),
  p('airline', 'Really smooth flight with @NorthwindAir today, friendly crew and good coffee.'),
  p('airline', '@BlueCrestAir support sorted out my refund in one call. Appreciate it.'),
  p(
    'airline',
    'Flight was delayed but the @SkyJetAir crew kept us updated and handed out snacks. Great job.',
  ),
  p('airline', '@NorthwindAir best lounge I have used this year'),
  p('airline', 'Thanks @BlueCrestAir for finding my bag so quickly, it was delivered to my hotel tonight.'),
  p('airline', 'Love the new seats on @SkyJetAir, so much more legroom.'),
  // ---- airlines: neutral
  o('airline', '@SkyJetAir what is the carry-on size limit for international flights?'),
  o('airline', '@NorthwindAir is flight 310 to Seattle on time tonight?'),
  o('airline', 'Boarding now with @BlueCrestAir, heading to Lisbon for the week.'),
  o('airline', '@SkyJetAir can I add a checked bag after booking online?'),
  o('airline', '@NorthwindAir do you fly direct from Austin to Toronto?'),
  o('airline', 'If my connection is delayed, does @BlueCrestAir rebook me automatically?'),
  o('airline', '@SkyJetAir how early should I get to the airport for a 7am domestic flight?'),
  o('airline', 'Just checked in for my @NorthwindAir flight tomorrow morning.'),
  o('airline', '@BlueCrestAir will the new route to Reykjavik run in winter?'),
  o('airline', '@SkyJetAir please DM me about changing the name on my reservation, thanks'),
  // ---- telecom and software: complaints
  n('telecom', '@AcmeMobile no signal in my whole neighbourhood for three days and support never answers.'),
  n('telecom', 'Acme Mobile charged me twice this month and refuses to refund. Switching carriers.'),
  n('telecom', "@AcmeMobile I've been on hold for 50 minutes just to cancel my plan"),
  n('telecom', 'Internet down again. Fourth outage this week, @FiberNet. Great job.'),
  n('software', 'The latest Zento update crashes on launch. Can not open any of my files.'),
  n('software', '@ZentoApp support ticket open for 12 days with no reply. Paying customer here.'),
  n('software', 'Zento keeps logging me out every five minutes. Unusable.'),
  n('software', 'Love how the Zento sync deletes my notes. Really helpful feature.'),
  n('software', 'Cancelled my Zento subscription, the price doubled and nothing got better.'),
  n('telecom', '@FiberNet technician was supposed to come between 8 and 12. It is 4pm. Nobody called.'),
  // ---- telecom and software: praise and neutral
  p('telecom', '@FiberNet fixed my connection the same day I reported it, top service.'),
  p('software', 'Zento support answered in ten minutes and solved my problem. Impressed.'),
  p('software', 'The new Zento dark mode is beautiful, thank you devs!'),
  o('software', 'Does Zento have an export to CSV option?'),
  o('telecom', '@AcmeMobile what time does the store on Main Street open on Sundays?'),
  o('software', 'Zento version 5.2 is out today with a new calendar view.'),
  // ---- retail and delivery: complaints
  n('retail', 'Ordered from Marlo two weeks ago, package still not here and the tracking has not moved.'),
  n('retail', '@MarloShop sent me the wrong size, and the return label link does not work.'),
  n('retail', 'Marlo customer service is a joke. Three emails, zero answers.'),
  n('retail', 'My Marlo order arrived damaged and they want me to pay for return shipping?'),
  n('retail', '@QuickShip driver marked my parcel as delivered. It was not delivered.'),
  n('retail', 'Waited all day for a QuickShip delivery that never came. No call, no email.'),
  n('retail', 'The blender from Marlo stopped working after a week. Total waste of money.'),
  n('retail', '@MarloShop the sale price disappeared at checkout. Bait and switch much?'),
  // ---- retail and delivery: praise and neutral
  p('retail', 'Marlo delivered a day early and the packaging was lovely.'),
  p('retail', '@QuickShip driver carried the heavy box upstairs for my grandma. So kind.'),
  p(
    'retail',
    'Returned a jacket to Marlo and got the refund in two days, no questions asked. Great experience.',
  ),
  o('retail', '@MarloShop do you ship to Canada?'),
  o('retail', 'QuickShip says my parcel will arrive tomorrow between 9 and 1.'),
  o('retail', 'Is the Marlo summer sale online only or in stores too?'),
  // ---- banks and food: complaints
  n(
    'bank',
    '@TrustlineBank my card got blocked while travelling and the fraud line kept me on hold for an hour.',
  ),
  n('bank', 'Trustline Bank app has been down all morning, can not pay anyone. Fix it.'),
  n('bank', 'Hidden fees everywhere with Trustline. Closing my account.'),
  n('food', 'Ordered from Pizzarama, waited 90 minutes and the pizza came cold. Thanks a lot.'),
  n('food', '@Pizzarama my order was missing the drinks and the app will not let me report it.'),
  // ---- banks and food: praise and neutral
  p('bank', 'Trustline sorted out a fraudulent charge in minutes, really reassuring.'),
  p('food', 'Pizzarama never disappoints, best crust in town.'),
  o('bank', '@TrustlineBank what is the daily limit for transfers in the app?'),
  o('food', 'Pizzarama is opening a new place on Elm Street next month.'),
  o('bank', 'Trustline Bank branches will be closed on Monday for the holiday.'),
];

const HELD_OUT: readonly CustomerPost[] = [
  // ---- airlines
  n('airline', '@PolarisAir 6 hours at JFK and counting. Every update pushes boarding another 30 minutes.'),
  n('airline', 'Just spent my entire layover in a customer service line that did not move. @PolarisAir'),
  n(
    'airline',
    '@MeridianAir you changed my seat without asking and split me from my 6 year old. Unbelievable.',
  ),
  n(
    'airline',
    'Nobody from @PolarisAir has contacted me about my damaged stroller. Filed a claim 10 days ago.',
  ),
  n('airline', '@MeridianAir the agent at the desk just shrugged and walked away. Great customer care.'),
  n(
    'airline',
    'My flight home got cancelled at midnight and @PolarisAir offered nothing. No hotel, no meal.',
  ),
  n('airline', '@MeridianAir your chat bot keeps sending me in circles. I need a human.'),
  n('airline', 'Paid for wifi on @PolarisAir and it never connected. Want that money back.'),
  n('airline', '@MeridianAir why do you keep delaying flight 77 by 20 minutes at a time?'),
  n('airline', 'Landed an hour ago, still sitting on the plane because there is no gate. @PolarisAir'),
  n('airline', '@MeridianAir my luggage went to Denver. I went to Dallas. Thanks for that.'),
  n('airline', 'Customer for 12 years and @PolarisAir treats me like this. Done.'),
  n('airline', '@MeridianAir the refund you promised in March still has not shown up'),
  n('airline', 'Seat was broken, tray table sticky, and the crew could not care less. @PolarisAir'),
  p('airline', '@PolarisAir pilot on the Boston leg explained every delay clearly, really appreciated that.'),
  p('airline', 'Big thanks to @MeridianAir for holding the connection for six of us from the late inbound.'),
  p(
    'airline',
    '@PolarisAir smoothest boarding I have seen in years. Whoever designed the new process, thank you.',
  ),
  p(
    'airline',
    'Lost my phone on the plane and @MeridianAir staff found it and mailed it back. Amazing people.',
  ),
  p('airline', '@PolarisAir the new app makes rebooking so easy, took me a minute.'),
  o('airline', '@MeridianAir do infants need their own passport for flights to Mexico?'),
  o('airline', '@PolarisAir is there a lounge in terminal 2 at Heathrow?'),
  o('airline', 'Flying @MeridianAir to Denver tomorrow, first time with them.'),
  o('airline', '@PolarisAir what happens to my connection if the first flight is late?'),
  o('airline', '@MeridianAir can I bring a guitar as carry-on?'),
  o('airline', '@PolarisAir please send me the receipt for booking XK92LP, thank you'),
  // ---- telecom and software
  n('telecom', '@LinkWave my bill went up 30 dollars with no warning. Who approved this?'),
  n('telecom', 'LinkWave support chat closed on me three times tonight. Impossible to talk to anyone.'),
  n('software', 'Updated Notely and now half my folders are gone. Support says wait 72 hours. Seriously?'),
  n(
    'software',
    'Notely sync has been broken since Tuesday and the status page says all systems operational lol',
  ),
  n(
    'telecom',
    'Moved house two weeks ago and @LinkWave still has not connected the line. Working from a cafe.',
  ),
  p('software', 'Notely support walked me through recovering a deleted notebook. Lifesavers.'),
  p('telecom', 'LinkWave upgraded my plan for free after I asked about a cheaper option. Nice touch.'),
  o('software', 'How do I share a Notely notebook with someone who does not have an account?'),
  o('telecom', '@LinkWave are there roaming charges in Canada on the basic plan?'),
  // ---- retail, delivery, banks, food
  n('retail', '@Bramble ordered a sofa in May, delivery date moved four times, now they say September.'),
  n('retail', "Bramble sent a used item as new. Scratches everywhere and someone else's hair in the box."),
  n(
    'retail',
    'Parcel sat at the @SwiftPost depot for a week. Tracking says out for delivery every single day.',
  ),
  n('bank', '@Keystone Bank froze my account without telling me and I could not pay rent.'),
  n('bank', 'Keystone app logs me out mid transfer every time. Fix your app.'),
  n('food', '@BurgerBarn delivery took 75 minutes and they forgot half the order. Not ordering again.'),
  p('retail', 'Bramble replaced my broken lamp within two days, no fuss. Will shop again.'),
  p('bank', 'Keystone Bank helped me set up a savings plan for my daughter, friendly and patient staff.'),
  p('food', '@BurgerBarn best fries in the city, still hot when they arrived.'),
  o('retail', '@Bramble when does the winter catalogue come out?'),
  o('bank', 'Keystone Bank is changing its card design next year.'),
  o('food', '@BurgerBarn do you have gluten free buns?'),
];

// Written BEFORE the layer's rules for implicit complaints, questions and solved problems, and never used
// to change them: only its aggregate figures were read while they were built. Short,
// informal posts in the style people use with airlines, telecoms, banks, delivery and software companies
// (handles, abbreviations, typos, caps, numbers, implicit complaints with no sentiment word, questions,
// thanks, sarcasm). Brands are invented (VeloAir, HarborJet, KestrelAir, OrbitTel, NimbusBank, ParcelPeak,
// Tasklio).
const HELD_OUT_2: readonly CustomerPost[] = [
  // ---- airlines: complaints, most without a sentiment word
  n('airline', '@VeloAir flight 2231 delayed again, missed my connection in ATL'),
  n('airline', '@HarborJet been on hold 45 min'),
  n('airline', '@KestrelAir where is my bag??? 3 days now'),
  n('airline', '@VeloAir still no refund after 3 weeks'),
  n('airline', 'gate agent just shrugged when i asked what happens now @HarborJet'),
  n('airline', '@KestrelAir Cancelled Flightled and rebooked me for THURSDAY. its monday.'),
  n('airline', '@VeloAir 2 hrs on hold and then the call dropped'),
  n('airline', '@HarborJet late flight again, 3rd time this month'),
  n('airline', '@KestrelAir no one answers at the baggage office. called 6 times'),
  n('airline', '@VeloAir worst airline. period.'),
  n('airline', '@HarborJet why is it so hard to get a human on the phone'),
  n('airline', '@KestrelAir how hard is it to put the right gate on the board'),
  n('airline', '@VeloAir sat on the runway for 2 hours with no AC. kids screaming.'),
  n('airline', '@HarborJet overbooked AGAIN. volunteered? no, you just bumped me'),
  n('airline', '@KestrelAir you downgraded me from first to economy and no compensation??'),
  n('airline', '@VeloAir charged twice for my checked bag, need this fixed'),
  n('airline', '@HarborJet wifi not working on 1120, paid $19 for nothing'),
  n('airline', '@KestrelAir your website is down and I need to check in'),
  n('airline', '@VeloAir app crashed mid booking and now i have 2 reservations'),
  n(
    'airline',
    '@HarborJet rebooked me on a flight that leaves at 5am tomorrow. no hotel. sleeping on the floor at ORD',
  ),
  n('airline', '@KestrelAir waiting for a callback since yesterday'),
  n('airline', '@VeloAir yet another delay on the 6pm to Boston'),
  n('airline', '@HarborJet never again. 9 hours to fly 400 miles'),
  n('airline', "@KestrelAir unacceptable. we were told boarding at 3, it's 5:30 and no plane"),
  n('airline', '@VeloAir ridiculous that a 1 hr flight takes a whole day'),
  n('airline', 'really disappointed with @HarborJet today. crew was rude and the plane was filthy'),
  n('airline', '@KestrelAir epic fail on baggage claim tonight, 1 carousel for 4 flights'),
  n('airline', '@VeloAir my bag came back damaged, the wheel is ripped off'),
  n('airline', '@HarborJet the flight attendant yelled at my daughter for standing up'),
  n('airline', '@KestrelAir 4 hours in line at the rebooking desk. FOUR.'),
  n('airline', '@VeloAir can someone explain why my seat assignment disappeared?'),
  n('airline', '@HarborJet you lost my car seat. how am i supposed to drive home with a baby'),
  n('airline', '@KestrelAir no gate agent at the gate, 200 people waiting, boarding time passed 20 min ago'),
  n('airline', '@VeloAir stranded in Denver overnight, no voucher, no help'),
  n('airline', '@HarborJet thanks for the 6 hour delay, really made my vacation'),
  n('airline', "@KestrelAir love how you cancel flights and then blame the weather when it's sunny"),
  n('airline', '@VeloAir great job losing my luggage for the second time this year 👏'),
  n('airline', '@HarborJet oh perfect, another gate change'),
  n('airline', '@KestrelAir awesome customer service. 3 agents, 3 different answers'),
  n('airline', '@VeloAir your hold music is burned into my brain at this point'),
  n('airline', '@HarborJet flight delayed bc crew "timed out". plan better'),
  n('airline', "@KestrelAir seats don't recline and the tv screen is broken. 5 hr flight"),
  n('airline', '@VeloAir my refund request was denied even though YOU cancelled the flight'),
  n('airline', '@HarborJet the voucher you gave me expired before I could use it. useless'),
  n('airline', '@KestrelAir I paid for early boarding and boarded with group 5'),
  n('airline', "@VeloAir flight 88 still hasn't left. we were supposed to be in Miami already"),
  n('airline', '@HarborJet nobody at the service desk in terminal B. where is everyone?'),
  n('airline', '@KestrelAir my elderly dad has been waiting for wheelchair assistance for an hour'),
  n('airline', "@VeloAir missed my sister's wedding because of your mechanical delay. thanks a lot"),
  n('airline', '@HarborJet i have been trying to change my flight online for 2 days, error every time'),
  n('airline', '@KestrelAir put me on hold, transferred me twice and hung up. unreal'),
  n('airline', '@VeloAir 😡😡😡 delayed 3 hours on the tarmac'),
  n('airline', '@HarborJet WHERE IS MY LUGGAGE'),
  n('airline', '@KestrelAir worst customer service i have ever experienced'),
  n('airline', '@VeloAir you guys have lost a loyal customer'),
  n('airline', "@HarborJet is it normal to wait 2 hours for bags? because that's what is happening"),
  n('airline', '@KestrelAir the plane smelled like fuel and nobody said anything'),
  n('airline', '@VeloAir 40 min waiting for a gate after landing. every. single. time.'),
  n('airline', '@HarborJet crew member told me to "deal with it" when I asked for water'),
  n('airline', '@KestrelAir rebooking line says wait time 3 hours. are you serious'),
  n('airline', '@VeloAir still waiting on my bag from last tuesday, file ref VX88213'),
  n('airline', '@HarborJet the flight itself was fine but losing my bag ruined the whole trip'),
  n('airline', '@KestrelAir why do you keep changing my itinerary without telling me'),
  n('airline', '@VeloAir seriously?? cancelled with 20 minutes notice'),
  n(
    'airline',
    '@HarborJet you cancelled my flight and now the refund is a "travel credit"? no. I want my money',
  ),
  n('airline', '@KestrelAir my first class meal was a bag of pretzels lol'),
  n('airline', '@VeloAir hold time 2+ hours, chat agent disconnected, email bounced. how do i reach you'),
  // ---- telecom, bank, delivery, software: complaints
  n('telecom', '@OrbitTel internet down since 7am. again.'),
  n('telecom', '@OrbitTel 3rd outage this week, paying for 500mbps getting 5'),
  n('telecom', "@OrbitTel been on hold 1hr 20min to cancel. you can't make this up"),
  n('telecom', '@OrbitTel my bill says $140, my plan is $60. explain'),
  n('telecom', '@OrbitTel tech no-show for the second time. took the day off work for nothing'),
  n('telecom', 'no service at all downtown today @OrbitTel what is going on'),
  n('telecom', '@OrbitTel still no signal after your "fix"'),
  n('telecom', "@OrbitTel overcharged me for 3 months and the rep said there's nothing she can do"),
  n('bank', "@NimbusBank app not working, can't see my balance"),
  n('bank', '@NimbusBank charged me an overdraft fee for a pending transaction. ridiculous'),
  n('bank', '@NimbusBank my card got declined at the grocery store with money in the account. embarrassing'),
  n('bank', "@NimbusBank 10 days for a transfer to clear? it's 2026"),
  n('bank', "@NimbusBank locked out of my account and the reset link doesn't work"),
  n('bank', '@NimbusBank fraud dept put me on hold for 50 minutes while someone drains my account'),
  n('delivery', "@ParcelPeak package says delivered. it's not here."),
  n('delivery', '@ParcelPeak my parcel has been "in transit" for 12 days'),
  n('delivery', "@ParcelPeak driver threw the box over the fence. it's a monitor."),
  n('delivery', "@ParcelPeak missed delivery note but i was home all day. didn't even knock"),
  n('delivery', "@ParcelPeak where is my package? tracking hasn't updated since monday"),
  n('delivery', '@ParcelPeak 3rd failed delivery attempt. just leave it at the door!!'),
  n('software', '@Tasklio app keeps crashing after the update'),
  n('software', "@Tasklio sync broken again, lost an hour's worth of edits"),
  n('software', '@Tasklio why does every update remove a feature i use'),
  n('software', '@Tasklio login not working for anyone else?'),
  n('software', '@Tasklio support ticket from 2 weeks ago, not a single reply'),
  n('software', '@Tasklio you doubled the price and the app is slower. cancelling'),
  n('software', 'Tasklio down for the 2nd time today. how am i supposed to work'),
  n('software', "@Tasklio the new UI is a mess. can't find anything"),
  // ---- praise (several name a problem that was solved)
  p('airline', '@VeloAir thanks for rebooking me so fast after the cancellation, you saved my trip'),
  p('airline', '@HarborJet the crew on 455 were awesome, thank you!'),
  p('airline', '@KestrelAir got my bag back within a day, thx for the quick help'),
  p('airline', '@VeloAir shoutout to Maria at the LAX counter, total lifesaver'),
  p('airline', '@HarborJet best flight i have had in years, on time and comfy seats'),
  p('airline', '@KestrelAir love the free wifi!! finally'),
  p('airline', '@VeloAir thank you for the upgrade, made my anniversary trip'),
  p('airline', '@HarborJet refund came through today, thanks for sorting it'),
  p('airline', "@KestrelAir the pilot's updates during the delay were great, appreciated the honesty"),
  p('airline', '@VeloAir early arrival and bags out in 10 min. impressed'),
  p('airline', '@HarborJet your agent on the phone was so patient with my grandma, thank you'),
  p('airline', '@KestrelAir wow the new planes are really nice'),
  p('airline', '@VeloAir got rebooked on an earlier flight for free, you guys rock'),
  p('airline', '@HarborJet flight attendants went above and beyond for my sick kid. forever grateful'),
  p('airline', 'always a pleasure flying @KestrelAir'),
  p('airline', '@VeloAir thanks!! got it sorted'),
  p('airline', "@HarborJet can't beat those fares. booked for the summer already"),
  p('airline', '@KestrelAir smooth landing in the storm, props to the pilots'),
  p('airline', '@VeloAir thanks for the quick reply, DM sent'),
  p('airline', '@HarborJet you guys were amazing today, the delay was handled perfectly'),
  p('airline', '@KestrelAir kudos to the gate crew in PHX for getting us out on time'),
  p('airline', '@VeloAir love the new boarding process, so quick'),
  p('airline', '@HarborJet the kids meal was a nice surprise, thank you'),
  p('airline', '@KestrelAir thank you for holding the plane for us!'),
  p('telecom', '@OrbitTel tech showed up early and fixed everything in 20 min. great service'),
  p('telecom', '@OrbitTel thanks for the credit for the outage, appreciated'),
  p('telecom', '@OrbitTel speeds have been great since the upgrade'),
  p('bank', '@NimbusBank chat agent reversed the fee right away. thank you'),
  p('bank', '@NimbusBank new app update is so much faster 👍'),
  p('bank', '@NimbusBank really appreciate the fraud alert, caught it just in time'),
  p('delivery', '@ParcelPeak driver waited while I ran down the stairs. legend'),
  p('delivery', '@ParcelPeak package came a day early, nice'),
  p('software', '@Tasklio the dark mode is 🔥 thanks team'),
  p('software', '@Tasklio support fixed my sync issue within an hour, really happy'),
  // ---- neutral: questions, information, updates
  o('airline', "@VeloAir what's the baggage allowance for international flights?"),
  o('airline', '@HarborJet do you have flights from Tampa to Nashville in June?'),
  o('airline', '@KestrelAir is there a fee to change my flight to an earlier one same day?'),
  o('airline', '@VeloAir can i bring my dog in cabin on a domestic flight'),
  o('airline', '@HarborJet when do you release the fall schedule?'),
  o('airline', '@KestrelAir how do I add my known traveler number to my booking?'),
  o('airline', '@VeloAir DM sent with my confirmation number'),
  o('airline', '@HarborJet is flight 1021 boarding from gate C4 or C6?'),
  o('airline', '@KestrelAir do you serve meals on flights to Hawaii?'),
  o('airline', '@VeloAir heading to Chicago tomorrow morning, first time flying with you'),
  o('airline', '@HarborJet are the new routes to Cancun starting in March?'),
  o('airline', '@KestrelAir what terminal do you use at JFK'),
  o('airline', '@VeloAir can I use my travel credit on a flight for someone else?'),
  o('airline', '@HarborJet how many miles do I need for a round trip to Europe?'),
  o('airline', '@KestrelAir please follow back so I can DM you'),
  o('airline', '@VeloAir does the 7am flight to Denver have wifi?'),
  o('airline', '@HarborJet my flight is at 6, what time does the counter open?'),
  o('airline', '@KestrelAir is there a number to call for group bookings?'),
  o('airline', '@VeloAir just landed in Portland'),
  o('airline', '@HarborJet need to change the name on a ticket, who do I contact?'),
  o('airline', '@VeloAir if my flight is cancelled due to weather, do I get a refund?'),
  o('airline', "@HarborJet what's your policy on delayed flights and hotel vouchers?"),
  o('airline', '@KestrelAir flight 330 on time tonight?'),
  o('airline', '@VeloAir is the 3pm to Austin delayed?'),
  o('airline', '@HarborJet checking in now, see you in Seattle'),
  o('airline', '@KestrelAir how do I request a wheelchair for my mom?'),
  o('airline', '@VeloAir trying to book a multi city trip online, is that possible?'),
  o('airline', "@HarborJet what's the max weight for a checked bag"),
  o('airline', '@KestrelAir will there be a holiday sale this year?'),
  o('telecom', '@OrbitTel do you offer fiber in the 78704 area?'),
  o('telecom', '@OrbitTel what time does the store on 5th open?'),
  o('telecom', '@OrbitTel does the unlimited plan include hotspot?'),
  o('bank', '@NimbusBank are branches open on Veterans Day?'),
  o('bank', '@NimbusBank how do i set up direct deposit'),
  o('bank', '@NimbusBank can I order checks through the app?'),
  o('delivery', '@ParcelPeak do you deliver on Saturdays?'),
  o('delivery', '@ParcelPeak can I change the delivery address after shipping?'),
  o('software', '@Tasklio is there an API for exporting tasks?'),
  o('software', '@Tasklio any plans for a linux app?'),
  o('software', '@Tasklio version 3.2 released today with calendar sync'),
];

// Written after `heldOut2` and used openly while building the implicit-complaint rules (disruption and
// failure vocabulary, question-complaints, frustrated emphasis): a second development set, so its score is
// optimistic too. Brands are invented (AeroLark, GlideAir, TerraMobile, CobaltBank, BoxRoute, Planora).
const DEVELOPMENT_2: readonly CustomerPost[] = [
  // ---- complaints with no sentiment word, or with words VADER does not know
  n('airline', '@AeroLark flight 903 delayed 4 hrs, now i miss my connecting flight'),
  n('airline', '@GlideAir on hold for 1 hour 15 minutes. still on hold.'),
  n('airline', '@AeroLark where are my bags. landed at 2pm'),
  n('airline', '@GlideAir my flight got Cancelled Flightled, now what'),
  n('airline', '@AeroLark Late Flight again tonight'),
  n('airline', '@GlideAir rebooked on a flight 2 days later?? i have work monday'),
  n('airline', '@AeroLark downgraded to economy on a 10 hour flight'),
  n('airline', '@GlideAir no answer at the baggage desk, no answer on the phone'),
  n('airline', '@AeroLark stuck in Phoenix, 3rd cancellation today'),
  n('airline', '@GlideAir 90 min in the rebooking queue and the agent left'),
  n('airline', '@AeroLark worst experience ever. never again'),
  n('airline', '@GlideAir unacceptable service at the Dallas counter tonight'),
  n('airline', '@AeroLark ridiculous. 5 gate changes for one flight'),
  n('airline', '@GlideAir so disappointed. first trip with you and it was a mess'),
  n('airline', '@AeroLark total fail on the boarding today'),
  n('airline', '@GlideAir why is the plane still not here? we board in 5 minutes'),
  n('airline', '@AeroLark how hard is it to answer a DM'),
  n('airline', '@GlideAir where is my refund? you said 7 days, it has been 30'),
  n('airline', '@AeroLark missing bag, day 4. anyone?'),
  n('airline', '@GlideAir bag arrived soaked and the zipper is broken'),
  n('airline', '@AeroLark the seat was broken and wouldnt stay upright'),
  n('airline', '@GlideAir your kiosk is not working and the line is out the door'),
  n('airline', '@AeroLark charged me twice for seat selection'),
  n('airline', '@GlideAir overcharged for a bag that was under the limit'),
  n('airline', '@AeroLark yet another cancelled flight. 2nd one this week'),
  n('airline', '@GlideAir still waiting for the voucher you promised'),
  n('airline', '@AeroLark we have been waiting on the plane for 50 minutes for a pilot'),
  n('airline', '@GlideAir overbooked by 15 and offering $100. lol no'),
  n('airline', '@AeroLark no food, no water, 3 hours on the tarmac'),
  n('airline', '@GlideAir WHY IS EVERY FLIGHT LATE'),
  n('airline', '@AeroLark 6th time calling today. hung up on again'),
  n('airline', '@GlideAir you lost my stroller and offered me a $25 voucher'),
  n('airline', '@AeroLark our flight was diverted and nobody is telling us anything'),
  n('airline', '@GlideAir agent told me its not her problem'),
  n('airline', '@AeroLark been stuck at the gate for an hour with the doors closed'),
  n('airline', "@GlideAir I've asked 3 times for a wheelchair. still nothing"),
  n('airline', '@AeroLark the wifi is down again on this flight'),
  n('airline', '@GlideAir terrible communication about the delay, we found out from the app'),
  n('airline', '@AeroLark thanks for cancelling my flight and not telling me'),
  n('airline', '@GlideAir love sitting on a plane with no air conditioning for an hour'),
  n('airline', '@AeroLark wow. 4 hour delay and not even a snack'),
  n('airline', '@GlideAir great, my bag is in Atlanta and I am in Boston'),
  n('airline', '@AeroLark is anyone going to help us at gate 12?? 2 hours now'),
  n('airline', '@GlideAir how do you lose a bag on a nonstop flight'),
  n('airline', '@AeroLark so now my connection is gone and the next flight is full'),
  n('airline', '@GlideAir your app says on time, the board says delayed, the gate says cancelled'),
  n('telecom', '@TerraMobile no service for 2 days now'),
  n('telecom', '@TerraMobile phone bill doubled and nobody can explain why'),
  n('telecom', '@TerraMobile internet keeps dropping every 10 minutes'),
  n('telecom', '@TerraMobile been waiting 3 hours for a chat agent'),
  n('bank', '@CobaltBank app crashed during a payment, was I charged or not??'),
  n('bank', '@CobaltBank transfer still pending after 5 business days'),
  n('bank', '@CobaltBank why was my card declined? there is money in the account'),
  n('delivery', '@BoxRoute tracking says delivered, nothing at my door'),
  n('delivery', '@BoxRoute package damaged, box crushed, contents broken'),
  n('delivery', '@BoxRoute 2 weeks late and still no update'),
  n('software', '@Planora site is down again'),
  n('software', '@Planora the export button does nothing. fix it'),
  n('software', '@Planora lost all my settings after the update'),
  n('software', '@Planora charged after I cancelled my subscription'),
  // ---- praise, several after a problem
  p('airline', '@AeroLark thanks for getting me on the next flight so quickly, great service'),
  p('airline', '@GlideAir found my lost bag and delivered it the same night. thank you!!'),
  p('airline', '@AeroLark crew handled the delay really well, kept everyone calm'),
  p('airline', '@GlideAir awesome flight today, thanks'),
  p('airline', '@AeroLark thank you for the quick refund'),
  p('airline', '@GlideAir the new lounge in Denver is gorgeous'),
  p('airline', '@AeroLark best customer service on the phone, 5 minutes and done'),
  p('airline', '@GlideAir appreciate you waiving the change fee'),
  p('telecom', '@TerraMobile fixed my outage in an hour, thanks'),
  p('bank', '@CobaltBank refunded the double charge the same day, appreciated'),
  p('delivery', '@BoxRoute early delivery again, love it'),
  p('software', '@Planora the new update is great, the app finally stopped crashing'),
  // ---- neutral
  o('airline', '@AeroLark is my flight delayed? LK 204'),
  o('airline', '@GlideAir can I get a refund if I cancel 24 hours before?'),
  o('airline', '@AeroLark how do I report a lost bag?'),
  o('airline', '@GlideAir what happens if I miss my connection?'),
  o('airline', '@AeroLark do you have a flight status page?'),
  o('airline', '@GlideAir how long is the hold usually on a seat?'),
  o('airline', "@AeroLark what's the weight limit for carry on"),
  o('airline', '@GlideAir any direct flights to Boise?'),
  o('airline', '@AeroLark flying out tomorrow, can I check in online?'),
  o('airline', '@GlideAir do I need to reconfirm my rebooked flight?'),
  o('telecom', '@TerraMobile is there an outage map?'),
  o('bank', '@CobaltBank how long does a refund take to show up?'),
  o('delivery', '@BoxRoute what time do drivers stop delivering?'),
  o('software', '@Planora is the service down or is it just me?'),
];

// Long posts of 2–6 sentences that tell what happened, as customers write to airlines, telecoms, banks,
// delivery, software and other companies: complaints told as stories (call-backs that never came, bookings
// moved and refunds refused, polite but angry, thanking staff while blaming the company, sarcasm), praise
// stories (some that mention a problem the company then solved) and neutral questions and updates. Written for
// the narrative rules (narrative cues in the complaint layer, the sentence-level reading in insights) and used
// openly while building them, so its score is optimistic. Written in five rounds: the first 60 posts before
// any narrative rule, each later round after the rules so far (its misses then led to general fixes), the last
// one measured once before it was used. The held-out sets were not read while writing it. Brands are invented
// (LumaAir, PinecrestAir, Vantel, Ridgeline Mobile, Harbourstone Bank, CorvidCU, Swiftcrate, Parcelon,
// Ledgerly, Notably, Homely, ShopRight, Tripzo, FiberOne, PulseTel, SkyLark, Zipline, PayEase, Carvo,
// Brightwater Energy, HomeWorks, RideNow, Coastline Rail, Oakfield).
const DEV_NARRATIVES: readonly CustomerPost[] = [
  // ---- first round (60 posts, before any narrative rule): complaints told as stories
  n(
    'airline',
    '@LumaAir I booked my flight to Porto back in March. Since then it has been moved twice, and yesterday I got an email saying it was cancelled altogether. Now your agents tell me no refund, only a voucher. That is not what I paid for.',
  ),
  n(
    'airline',
    "Called @LumaAir three times this week about my daughter's missing bag. Each time I was told someone would call me back within 24 hours. Nobody did. She has been wearing borrowed clothes for five days.",
  ),
  n(
    'airline',
    'I want to thank the flight attendants on PA 212, they were lovely and did their best. But @PinecrestAir as a company let us sit on the plane for three hours with no water and no information. The crew clearly had no idea what was going on either.',
  ),
  n(
    'airline',
    'Dear @PinecrestAir, I have been a loyal customer for ten years. Last week I was charged twice for the same seat upgrade. I have written to you four times since and received the same automated reply each time. I would appreciate an actual answer.',
  ),
  n(
    'airline',
    'Our flight was supposed to leave at 7am. We boarded at 9, then were told to get off the plane again. At noon they announced a new crew was on the way. We finally left at 4pm and missed the wedding rehearsal. Thanks @LumaAir, really memorable trip.',
  ),
  n(
    'airline',
    "Arrived in Madrid at midnight and my suitcase did not. The desk took my details and promised a delivery the next day. It is now day four, the tracking page still says 'being traced' and the phone line rings out. @PinecrestAir",
  ),
  n(
    'airline',
    'So @LumaAir changed my seat without asking and split me from my 6 year old. At the gate they said there was nothing they could do. A stranger swapped with us in the end, no thanks to the airline.',
  ),
  n(
    'airline',
    'Paid for priority boarding, lounge access and a checked bag. The lounge was closed for renovation, priority boarding was not enforced and the bag came out last. I asked for a partial refund and was told to fill in a form that does not exist on the website. @PinecrestAir',
  ),
  n(
    'telecom',
    '@Vantel I moved house on the 2nd and booked the broadband transfer a month in advance. The engineer never showed up. I rang and was told the appointment had been cancelled on your side, no reason given. The next slot is in three weeks and I work from home.',
  ),
  n(
    'telecom',
    "Been a Ridgeline customer for six years and this is how it ends. My bill went from 35 to 52 with no warning. When I called, the agent was perfectly polite but said there was nothing she could do. I'll be porting my number out this week.",
  ),
  n(
    'telecom',
    'Day nine without a working landline. Every time I contact @Vantel I am asked to restart the router, which I have done about forty times. Someone was supposed to escalate it on Monday. Still nothing.',
  ),
  n(
    'telecom',
    "Ridgeline Mobile keeps sending me texts offering an upgrade while my current phone has had no signal at home since August. I've reported it twice and both tickets were closed without anyone contacting me. Impressive priorities.",
  ),
  n(
    'bank',
    'Tried to transfer money for our house deposit on Friday. @HarbourstoneBank flagged it as suspicious and froze my account. I spent two hours on the phone being passed between departments. The sale nearly fell through because of this.',
  ),
  n(
    'bank',
    "My mum is 82 and went into the Harbourstone branch to close an old account. She was told she had to do it online. She doesn't have a computer. When I called on her behalf they said only she could call. Absolutely maddening.",
  ),
  n(
    'bank',
    "I reported my card stolen on the 3rd. The new card was supposed to arrive in 5 working days. It's the 20th, I've been sent two cards to an old address even though I updated it, and I still can't pay for anything. @CorvidCU",
  ),
  n(
    'bank',
    "Thank you @CorvidCU for the lovely email about 'putting members first'. Meanwhile I have been waiting six weeks for a mortgage decision and no one will tell me what is holding it up.",
  ),
  n(
    'delivery',
    "@Swiftcrate my parcel was out for delivery on Tuesday. Then it was 'delayed due to operational issues'. Then it was back at the depot. Today it says delivered, and the photo shows someone else's front door. Who do I even talk to?",
  ),
  n(
    'delivery',
    'Ordered a birthday present two weeks in advance with Parcelon. It arrived the day after the birthday, box crushed, and the driver left it in the rain. I know these things happen but nobody has replied to my message in 6 days.',
  ),
  n(
    'delivery',
    "Swiftcrate's chat bot has now told me three times that my issue is resolved. It is not resolved. The package is still sitting in a warehouse two towns away and the 'redeliver' button gives an error.",
  ),
  n(
    'delivery',
    "I stayed home all day for a Parcelon delivery between 8 and 6. At 6:15 I got a notification that they 'tried to deliver' and nobody was in. I was sitting by the door. Now I have to drive 40 minutes to collect it.",
  ),
  n(
    'software',
    "We moved our whole team to @Ledgerly in January. Since the March update invoices export with the wrong dates, and we've had to fix them by hand every month. Support acknowledged the bug in April and said a fix was coming. It is now July.",
  ),
  n(
    'software',
    'Notably deleted two weeks of my notes during a sync. I contacted support and was told to restore from a backup, which apparently only exists on the paid plan I was already on. Three emails later I still have no idea where my work went.',
  ),
  n(
    'software',
    "Really appreciate the friendly replies from the @Ledgerly support team, but friendly replies don't fix a payroll run that failed twice. Our staff got paid late again this month. We need a real solution, not apologies.",
  ),
  n(
    'software',
    'Updated Notably this morning as the app asked me to. Now it opens for two seconds and closes. Reinstalled, restarted, same thing. I have a presentation at 3 and all my material is in there.',
  ),
  n(
    'airline',
    "Five hours in Frankfurt because @PinecrestAir couldn't find a pilot. Then the meal voucher was worth exactly one sandwich. Then our bags went to Vienna. What a fantastic way to start a holiday.",
  ),
  n(
    'airline',
    "Hello @LumaAir. I understand that weather delays are nobody's fault. What I don't understand is why I was rebooked on a flight two days later without being asked, when there were seats the next morning. I'd like this explained please.",
  ),
  n(
    'telecom',
    "Got a letter from @Vantel saying my contract has been renewed for 24 months. I never agreed to that. The cancellation team says I need to pay an early exit fee to leave a contract I didn't sign up for.",
  ),
  n(
    'bank',
    'Harbourstone closed the branch in our town last year, fine. Now the nearest one has cut its hours to three days a week and the queue was out the door this morning. I waited 70 minutes to deposit a cheque.',
  ),
  n(
    'delivery',
    "Third week in a row that my Swiftcrate grocery order turns up with items missing. This time it was the milk, the bread and the nappies. The refund comes as store credit, not money, which isn't much use if I'm leaving.",
  ),
  n(
    'software',
    "Ledgerly sent us an email saying our price would go up 'modestly'. It went up 60%. We were given two weeks notice, in the middle of a contract year. Looking at alternatives now.",
  ),
  n(
    'airline',
    "Flew @PinecrestAir for the first time last month. The check-in queue took an hour, the flight was 90 minutes late and the seat didn't recline. On the way back they lost my booking entirely. I won't be trying them again.",
  ),
  n(
    'telecom',
    "I was promised a 50 euro credit on my bill after last month's outage. The agent even read me the reference number. This month's bill has no credit on it. @RidgelineMobile where is it?",
  ),
  n(
    'software',
    "Our Notably workspace has been read-only since yesterday afternoon. The status page says all systems operational. Support's auto-reply says the response time is 48 hours. We have a launch on Thursday.",
  ),
  n(
    'delivery',
    'The Parcelon driver threw my parcel over the gate. It had GLASS stickers all over it. I sent photos and was told to open a claim, and the claim form keeps timing out.',
  ),
  n(
    'bank',
    "Switched to @CorvidCU because everyone said their service was great. Opening the account took a month, my direct debits were set up wrong so two bills bounced, and I've been charged a fee for each. Not the start I hoped for.",
  ),
  n(
    'airline',
    'Our honeymoon flights were changed by LumaAir from a direct flight to one with an 8 hour layover. We were told we could accept it or lose the money. We accepted. I hope nobody else gets treated like this.',
  ),
  // ---- praise stories, some with a problem the company solved
  p(
    'airline',
    "Our flight was delayed overnight because of a storm, which nobody can help. @LumaAir had hotel and meal vouchers ready before we even got to the desk, and rebooked us on the first flight out. Honestly one of the best handled disruptions I've seen.",
  ),
  p(
    'airline',
    'Unfortunately I left my laptop in the seat pocket on my @PinecrestAir flight home. I filled in the lost property form expecting nothing. Two days later they called me, and the laptop arrived by courier the next morning. Thank you so much!',
  ),
  p(
    'telecom',
    'Had a problem with my router last night and expected a long wait. The @Vantel agent picked up in two minutes, walked me through a reset and then booked an engineer anyway just to be safe. He came this morning and everything works. Great service.',
  ),
  p(
    'bank',
    "I panicked when I saw a payment I didn't recognise. Called @HarbourstoneBank, the lady on the phone was calm, blocked the card, refunded the money on the spot and had a new card sent out. Really grateful.",
  ),
  p(
    'delivery',
    "The Swiftcrate driver noticed I'd left my window open and knocked to tell me before leaving the parcel. Small thing, but it made my day. Thanks!",
  ),
  p(
    'software',
    "Ledgerly's year end report saved me a whole weekend. I've been using it for three years and it keeps getting better. The new bank feed is excellent.",
  ),
  p(
    'software',
    "I accidentally deleted a shared folder in Notably and thought a month of work was gone. Support restored everything within the hour and explained how to turn on version history. Can't thank them enough.",
  ),
  p(
    'airline',
    'Flew with my elderly dad on @PinecrestAir last week. Wheelchair assistance was waiting at every step, the crew checked on him throughout the flight and someone even carried his bag to the taxi. Thank you for making it so easy.',
  ),
  p(
    'telecom',
    "Switched to Ridgeline Mobile last month after years with another provider. Porting my number took ten minutes, the signal at home is much better and my bill is lower. Wish I'd done it sooner.",
  ),
  p(
    'bank',
    'Applied for a small business loan with @CorvidCU. The adviser explained every step, answered my emails the same day and we had a decision in a week. Very impressed.',
  ),
  p(
    'delivery',
    'Parcelon has been brilliant this Christmas. Every parcel arrived on the day they said, with a one hour window, and the driver always had a smile. Will keep choosing them.',
  ),
  p(
    'airline',
    "Unfortunately our connection was tight and we were sure we'd miss it. A @LumaAir agent met us at the gate with a cart and drove us across the terminal. We made it with minutes to spare. Amazing staff.",
  ),
  p(
    'software',
    'Reported a bug in the Notably iOS app on Monday. The developer replied personally, asked for a screen recording, and the fix shipped on Thursday. That is how support should work.',
  ),
  p(
    'bank',
    "Went into the Harbourstone branch to sort out my late father's accounts. The staff member was patient and kind, took us through everything and made a very hard day a bit easier. Thank you.",
  ),
  // ---- neutral questions and updates
  o(
    'airline',
    'Heading to Lisbon with @LumaAir tomorrow. Can I bring a folding pram to the gate and check it there? Also, does the child need their own passport or is the birth certificate enough?',
  ),
  o(
    'airline',
    "Quick update for the family: our flight was moved from 10:40 to 13:15 by PinecrestAir, so we'll land around 6 instead of 3. No need to pick us up, we'll get the train.",
  ),
  o(
    'telecom',
    "We're moving to a new flat at the end of the month. @Vantel, do I need to book the broadband transfer, or does it happen automatically when I update my address? The contract has eight months left.",
  ),
  o(
    'bank',
    "@HarbourstoneBank I'm opening an account for my teenage son. What ID does he need to bring to the branch? He has a passport but no driving licence yet.",
  ),
  o(
    'delivery',
    "Swiftcrate says my parcel is at the local depot and will be delivered tomorrow. I'll be at work, so I've set a safe place by the back door. Let's see how it goes.",
  ),
  o(
    'software',
    'Ledgerly announced today that the old desktop app will be retired in June. Existing files will be migrated to the web version automatically. The pricing stays the same for current plans.',
  ),
  o(
    'software',
    "Is there a way to export a whole Notably workspace as Markdown? I'm moving some notes to a wiki for my team. I only need the text, not the attachments.",
  ),
  o(
    'telecom',
    'Ridgeline Mobile is doing scheduled maintenance on Sunday between 2am and 5am. Calls and data may be interrupted in the north region. Details are on their website.',
  ),
  o(
    'bank',
    'CorvidCU changed its savings rate from 3.1% to 3.0% this month. I am comparing it with a couple of other accounts before deciding whether to move my savings.',
  ),
  o(
    'airline',
    "First time flying long haul with a baby. I've booked a bassinet seat with @LumaAir for the flight to Toronto in May. Any tips from parents who've done it?",
  ),
  // ---- second round: written after the first rules, then used to extend them
  n(
    'airline',
    "My husband and I flew home from Rome on Sunday. Our car seat never came off the plane. The baggage office gave us a number to call, which nobody answers. We have a two year old and can't drive anywhere.",
  ),
  n(
    'delivery',
    'Ordered a fridge from Homely on the 4th, delivery booked for the 12th. On the 12th I took the day off work. No fridge, no call. When I rang they said the van had broken down and the next slot is the 26th. Two weeks with no fridge.',
  ),
  n(
    'software',
    "I pay for the premium plan specifically for the faster support. Opened a ticket on Monday about a billing error. It's Friday. The only reply so far asked me for information I had already put in the ticket.",
  ),
  n(
    'retail',
    "Cancelled my gym membership in person, got a confirmation email, and they've taken another payment this month anyway. The branch says it's head office, head office says it's the branch.",
  ),
  n(
    'telecom',
    'The technician arrived three hours late, spent ten minutes looking at the box and said he needed a different part. He left. Nobody has been in touch since and my internet still drops every evening.',
  ),
  n(
    'airline',
    'Flight from Dublin was delayed by two hours, fine, it happens. Then we sat on the runway for another hour with the air conditioning off. Then the captain announced we were going back to the gate. We got a text at 1am saying the flight was cancelled.',
  ),
  n(
    'bank',
    "I've been trying to update my address on the banking app for a week. It asks for a code by text, the text never arrives. The phone line says use the app. I am going round in circles.",
  ),
  n(
    'retail',
    'Hi, I returned a pair of boots over a month ago and have the tracking showing you received them on the 3rd. Still no refund. Could you please look into this, as I have emailed twice already.',
  ),
  n(
    'telecom',
    "My phone was stolen last month and I reported it straight away. I've just had a bill for 300 pounds of calls made after I reported it. The agent told me I'd have to pay it while they investigate.",
  ),
  n(
    'delivery',
    'The order said next day delivery. Four days later the tracking still says label created. I contacted support and got a copy-paste answer telling me to wait 24 hours.',
  ),
  n(
    'retail',
    "Dear ShopRight, I have been a customer for years but this will be my last order. Half the items were substitutions I didn't want and the eggs were smashed. The driver was lovely, not his fault at all.",
  ),
  n(
    'travel',
    "Booked a hotel through Tripzo for our anniversary. When we arrived the hotel had no record of the booking. Tripzo's helpline kept us on hold for 40 minutes and then cut us off. We ended up paying for a different hotel ourselves.",
  ),
  p(
    'delivery',
    'Quick shout out to the team at Homely. My sofa arrived with a small tear, I sent a photo and within an hour they had arranged a replacement cover. Delivered two days later. Brilliant service.',
  ),
  p(
    'travel',
    'Had to cancel our holiday because my dad went into hospital. I expected a fight, but Tripzo refunded everything without any fuss and even sent a kind message. Thank you.',
  ),
  p(
    'rail',
    'Our train was cancelled last night but the staff at the station were fantastic. They organised taxis for everyone and kept us updated the whole time. Got home only an hour later than planned.',
  ),
  p(
    'bank',
    'Been with this bank for twenty years and today reminded me why. Someone tried to use my card abroad, they spotted it before I did, blocked it and had a new one to me the next day.',
  ),
  o(
    'retail',
    "Does anyone know if Homely deliver on Saturdays? I'm ordering a bed frame and can only be in at the weekend. Their website doesn't say.",
  ),
  o(
    'software',
    "Tripzo have updated their app. You can now see your whole itinerary offline and add bookings from email. Haven't tried it properly yet.",
  ),
  o(
    'airline',
    'My flight tomorrow got moved from gate 12 to gate 30, according to the app. Just posting in case anyone else on the 7am to Berlin is looking for it.',
  ),
  o(
    'telecom',
    'Switched my broadband to FiberOne today. The engineer comes on Thursday between 8 and 1. Will report back on the speeds.',
  ),
  // ---- third round: polite, thanking staff, sarcasm; used to extend the rules
  n(
    'bank',
    "Good morning. I'd like to understand why my direct debit was taken twice this month. I've checked my statement and both payments are there. I'd be grateful if someone could get back to me today, as this has left me short for rent.",
  ),
  n(
    'other',
    "I want to say the woman on the phone, Priya, was really kind and tried her best. But this is the fourth time I've explained my problem to someone at your company. Every time it's a new ticket and a new person. Surely someone can just read the notes.",
  ),
  n(
    'delivery',
    "Wonderful. Spent my whole Saturday waiting in for a sofa that was 'out for delivery'. At 7pm it changed to 'rescheduled'. Love that for me.",
  ),
  n(
    'software',
    "So the new update moved every button I use. My saved reports are gone. Support says it's a feature. Brilliant.",
  ),
  n(
    'other',
    'Thank you for your email saying my complaint has been closed. It has not been resolved, I simply stopped replying because nobody was reading my replies.',
  ),
  n(
    'other',
    'We have been customers for eight years. In that time the price has gone up every single year while the service has got worse. This year it went up again by 18 percent. I have asked for a better deal and was offered 2 pounds off.',
  ),
  n(
    'bank',
    "Please can someone help. My mum's pension payment hasn't arrived in her account and the bank says it's with the sender. The pension office says it was sent on Monday. She has no money for food this week.",
  ),
  n(
    'retail',
    'Just want to flag that the self checkout at the Elm Road store has been broken for three weeks now. Staff just shrug when you ask. It is the only one they have.',
  ),
  p(
    'delivery',
    "Honestly didn't expect much after reading the reviews, but my experience with Homely was great. The delivery team called ahead, put the bed together and took all the packaging away. Would use again.",
  ),
  p(
    'rail',
    'The train was delayed by 30 minutes but the guard came through the carriage, explained what happened and told us how to claim compensation. Claim paid within a week. More of this please.',
  ),
  o(
    'software',
    "Our office is moving on the 1st, so deliveries from next week should go to the new address on Harbour Street. I've updated it in our account settings. Let me know if anything else is needed.",
  ),
  o(
    'other',
    "I'm travelling with a guitar next month. Can it go in the cabin as my carry-on, or do I need to buy a seat for it? It's in a soft case.",
  ),
  // ---- fourth round: written before its rules were extended, then used to extend them
  n(
    'retail',
    "Last Tuesday I ordered a laptop for my daughter's exam prep. The website said in stock, dispatched within 24 hours. Yesterday I got an email saying it's on backorder until March. Her exams are in February.",
  ),
  n(
    'retail',
    "I don't usually post reviews but I feel I have to. We waited 55 minutes for our mains, the steak was grey and when I mentioned it the manager argued with me in front of my kids.",
  ),
  n(
    'telecom',
    'Can anyone from PulseTel explain why my contract price went up in April when I was told at signing it was fixed for two years? I have the recording of the sale. Three calls so far and every agent gives me a different answer.',
  ),
  n(
    'airline',
    'Landed at 11pm after a 14 hour flight. Waited at the carousel until 1am with about fifty other people. No announcements, no staff, and the bags came out in a trickle. Welcome home I guess.',
  ),
  n(
    'other',
    'I asked for the account to be closed in writing in June. In August I got a letter saying I owed two months of fees on it. Spent my lunch break on hold again today.',
  ),
  n(
    'delivery',
    'My order was meant to be a surprise for my wife. The courier handed it to my neighbour without asking, who then posted a photo of it online. Thanks Zipline, great job.',
  ),
  n(
    'bank',
    "We have a small shop and use PayEase for card payments. Their system went down on Saturday, our busiest day, for six hours. Their status page said nothing. We lost hundreds in sales and all we've had is a generic sorry email.",
  ),
  n(
    'retail',
    "Renewed my car insurance online and it charged me for the old car as well as the new one. I've now sent proof twice. Each email gets a reply asking for the same document.",
  ),
  n(
    'software',
    "Went to collect my prescription at 5pm as the app told me it was ready. It wasn't. Came back at 6, still not ready, and they close at 6:30. It's a blood pressure medication, I can't just skip it.",
  ),
  n(
    'software',
    "The new version of the app logs me out every time I switch to another app. I've cleared the cache, reinstalled it and updated my phone. Support told me to clear the cache.",
  ),
  n(
    'other',
    'Paid extra for the sea view. We got a room facing the car park and the reception said the sea view rooms were all taken. Why take the money then?',
  ),
  n(
    'other',
    "So I finally got through after an hour and the agent said the system was down and I should call back tomorrow. Tomorrow. I've been trying to sort this since last week.",
  ),
  n(
    'airline',
    "Honestly thought I was being clever booking early with SkyLark. Paid 400 for two seats, then they sold the same seats for 150 a month later and won't price match. Lesson learned.",
  ),
  p(
    'travel',
    'I was nervous about buying a used car online but Carvo made it so simple. The car was exactly as described, the paperwork was done in twenty minutes and they delivered it to my door. Highly recommend.',
  ),
  p(
    'delivery',
    "My order from Zipline came damaged, which happens. I sent one photo and a replacement was at my door the next day, no need to send the broken one back. That's how you keep customers.",
  ),
  p(
    'software',
    "Thank you to the nurse on ward 7 who sat with my mum all night when we couldn't be there. She called us every few hours with an update. We will never forget it.",
  ),
  p(
    'telecom',
    'After three years with PulseTel I almost left over the price, but the retention team offered me a better deal than any competitor and threw in extra data. Staying put and happy about it.',
  ),
  p(
    'airline',
    'Our flight was cancelled at the last minute, but SkyLark had already rebooked us on the next one and texted us the new boarding passes before we even reached the desk. Impressive.',
  ),
  p(
    'bank',
    'Small business owner here. The PayEase support team spent an hour on a video call setting up our new terminal with us. Patient, friendly and it all works.',
  ),
  o(
    'travel',
    "Has anyone used Carvo to sell a car? I'm wondering how their valuation compares with a dealer trade-in. My car is a 2018 hatchback with low mileage.",
  ),
  o(
    'telecom',
    'PulseTel are changing their mobile plans from next month. The old unlimited plan is being renamed and the price stays the same for existing customers. New customers get a different price.',
  ),
  o(
    'airline',
    'Heads up for anyone flying SkyLark out of terminal 2 tomorrow: the security lane by gate A is closed for works, so allow extra time. The main lane is open as usual.',
  ),
  o(
    'delivery',
    "I need to change the name on a booking because my passport has my married name. Does Zipline Travel charge for that, or is it free if it's a spelling correction?",
  ),
  o(
    'bank',
    "My bank is moving me to a new type of current account in the spring. The letter says the account number and card stay the same. I'll read the fee details properly at the weekend.",
  ),
  // ---- fifth round: written after the rules were extended and measured once (accuracy 0.667, 0.500 called
  // negative against 0.500 labelled), then used for one phrase ("buffering")
  n(
    'telecom',
    'Moved into our new flat three weeks ago and we still have no broadband. The first engineer came to the wrong address. The second one said the line needs a different team. Every call ends with "we\'ll raise it with them".',
  ),
  n(
    'utility',
    'To whoever runs the Brightwater Energy complaints desk: my meter readings have been ignored for six months and you estimated my bill at nearly double what I actually use. I submitted photos of the meter in January, February and March.',
  ),
  n(
    'software',
    "Our kitchen fitter from HomeWorks took a deposit, turned up for two days and then disappeared. Emails bounce and the number is disconnected. HomeWorks say he was a subcontractor and it's not their responsibility.",
  ),
  n(
    'retail',
    'I bought a washing machine with a five year warranty. It broke after fourteen months. The repair man came, said it needs a part, and the part has been "on order" for seven weeks. We\'re doing laundry at my mother\'s.',
  ),
  n(
    'airline',
    'Booked a taxi to the airport for 5am through RideNow. At 5:10 the app said the driver had cancelled. No other drivers available. Paid 90 for a last minute cab and nearly missed our flight.',
  ),
  n(
    'software',
    "I'm a nurse and I work nights. Your engineer was booked for an afternoon slot and turned up at 8am, rang the bell repeatedly, then left a card saying I wasn't home. Now the next appointment is in a fortnight.",
  ),
  n(
    'travel',
    'The hotel looked nothing like the photos. The pool was closed, the room smelled of damp and the breakfast was a tray of cold toast. When we complained, we were offered a free drink.',
  ),
  n(
    'rail',
    'Dear Coastline Rail, the 7:42 has been cancelled four mornings out of five this week. Each time I\'m late for work and each time your app says "minor disruption". My season ticket cost 3,000 pounds.',
  ),
  n(
    'bank',
    'My grandfather has banked with Oakfield for fifty years. Last week they told him his branch is closing and he should "go digital". He is 91 and has never used a smartphone.',
  ),
  n(
    'delivery',
    "I received a parcel today that I didn't order, and my card was charged for it. The seller's contact page just loops back to the FAQ. The marketplace says to contact the seller.",
  ),
  n(
    'software',
    "The streaming app has been buffering every evening for a month. I've tested my connection, it's fine for everything else. The help centre article suggests turning the TV off and on again.",
  ),
  n(
    'retail',
    "I ordered a cake for my son's 5th birthday, paid in full, and when I went to collect it the shop had no order under my name. They offered to make a plain sponge in an hour.",
  ),
  p(
    'bank',
    'Locked myself out of my online banking right before a big payment was due. The Oakfield adviser verified me over video, reset everything and stayed on the line until the payment went through. Huge relief.',
  ),
  p(
    'utility',
    'Our boiler died on the coldest night of the year. Brightwater had an engineer with us by 9 the next morning, and he fitted the new part there and then. Warm house again, thank you.',
  ),
  p(
    'software',
    'I was dreading the move but the HomeWorks removals team were brilliant. Everything was wrapped, labelled and unpacked in the right rooms, and they even put the beds together.',
  ),
  p(
    'software',
    'Left my phone in a RideNow car on Friday night. Reported it in the app, the driver messaged me within ten minutes and dropped it off on his way home. Gave him a big tip.',
  ),
  p(
    'rail',
    'Coastline Rail staff at Exeter went above and beyond when my mum fell on the platform. Someone stayed with her until the ambulance came and they called me to let me know.',
  ),
  o(
    'rail',
    "Does anyone know whether Coastline Rail's railcard discount works on advance tickets? I'm booking a trip to Cornwall for August and want to get the cheapest fare.",
  ),
  o(
    'software',
    "RideNow is launching in our city next week. Fares will be shown upfront in the app, and there's a scheduled ride option for airport trips. I'll probably try it for the commute.",
  ),
  o(
    'utility',
    "We're switching our office energy supplier when the contract ends in June. Brightwater and two others have sent quotes. I'll compare the standing charges and unit rates this week.",
  ),
  o(
    'bank',
    'My new debit card from Oakfield arrived today. The old one expires at the end of the month, so I need to update it on a few subscriptions. Does anyone know if direct debits move over automatically?',
  ),
  o(
    'software',
    "HomeWorks have opened a showroom in the retail park off the ring road. They're doing free kitchen design appointments on weekends. Might go and have a look on Saturday.",
  ),
  o(
    'software',
    "I'm writing to ask about the warranty on a dishwasher I bought in 2022. The receipt says three years, but the booklet says two. Which one applies?",
  ),
  o(
    'rail',
    "Heading to the Lake District with my family next month. We'll take the train up and hire a car there. Any tips on where to stay near Windermere?",
  ),
];

/** Every post, with the set it belongs to. */
export const CUSTOMER_POSTS: readonly (CustomerPost & { set: PostSet })[] = [
  ...DEVELOPMENT.map((post) => ({ ...post, set: 'development' as const })),
  ...HELD_OUT.map((post) => ({ ...post, set: 'held-out' as const })),
  ...DEVELOPMENT_2.map((post) => ({ ...post, set: 'development-2' as const })),
  ...HELD_OUT_2.map((post) => ({ ...post, set: 'held-out-2' as const })),
  ...DEV_NARRATIVES.map((post) => ({ ...post, set: 'dev-narratives' as const })),
];
