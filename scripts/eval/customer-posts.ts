// Customer posts for the sentiment evaluation, WRITTEN BY THE CRESTWATCH TEAM for this purpose (not collected
// from any platform, not taken from any data set; brands and flight numbers are invented). They imitate what
// customers post to or about a company: complaints, praise and neutral questions or updates, with the hard
// cases a lexicon meets (courtesy words in complaints, sarcasm, thanks after a problem was solved, questions
// that name a problem without complaining). The label is the team's reading of each post.
//
// Two sets, reported separately:
//  - `development`: written before the complaint layer (src/modules/trends/complaints.ts) was finished and
//    then used while building it: its misses led to general fixes (case-sensitive negators, hypotheticals,
//    "but" before a standalone "Great job.", request courtesy) and to a few phrases ("ignored my", "why does
//    it take", "down all morning", "can't tell me"). Its score is therefore optimistic.
//  - `heldOut`: written after the layer was frozen and never used to change it.
// Both are the team's own judgement, not an independent benchmark.

export type PostLabel = 'negative' | 'positive' | 'neutral';

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

/** Every post, with the set it belongs to. */
export const CUSTOMER_POSTS: readonly (CustomerPost & { set: 'development' | 'held-out' })[] = [
  ...DEVELOPMENT.map((post) => ({ ...post, set: 'development' as const })),
  ...HELD_OUT.map((post) => ({ ...post, set: 'held-out' as const })),
];
