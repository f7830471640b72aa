# ruff: noqa: E501  -- prose data file: one paragraph per source line reads better than wrapped text
"""The Health Watch Daily articles of the demo pool, in publication order (the line markup: :mod:`demo.articles`)."""

#: (slug, site, section, topics, text) of each article
PIECES: tuple[tuple[str, str, str, tuple[str, ...], str], ...] = (
    (
        "walking-after-meals-type-2-diabetes",
        "healthwatch",
        "conditions",
        ("diabetes", "exercise"),
        """
# A short walk after meals helps control blood sugar in type 2 diabetes
> Ten to fifteen minutes on foot after eating lowers the glucose spike, a review of trials suggests.
People with type 2 diabetes who take a gentle walk soon after their main meals see smaller rises in blood glucose than those who stay seated, according to a review of seven small clinical trials.
The effect was largest after the evening meal, which for many people is the biggest of the day and is followed by hours on the sofa. Working muscles take up glucose from the blood without needing as much insulin, which is why even light activity helps.
## The findings
- Peak glucose fell by about a fifth
- Ten minutes was enough to help
- Benefits faded if the walk was delayed
The authors stress that walking does not replace medication. Anyone who uses insulin or sulphonylureas should talk to their diabetes nurse before changing their routine, because activity can occasionally push glucose too low.
"It is cheap, it is safe for most people and it fits around family life," said one of the researchers.
""",
    ),
    (
        "asthma-inhaler-technique-mistakes",
        "healthwatch",
        "conditions",
        ("asthma",),
        """
# Most people with asthma use their inhaler the wrong way
> Pharmacists say a two-minute check could prevent many attacks and hospital visits.
Up to seven in ten people with asthma make at least one mistake when they use their inhaler, pharmacists have warned, meaning much of the medicine ends up in the mouth or throat instead of the lungs.
The most common errors are breathing in too fast with an aerosol inhaler, not breathing out fully first, and forgetting to hold the breath afterwards. Many patients were shown how to use their device once, years ago, and never checked again.
Spacers, the plastic tubes that attach to aerosol inhalers, make a large difference for children and older adults, yet they often sit unused in a drawer.
Pharmacists recommend a few simple steps:
- Breathe out gently first
- Breathe in slowly and deeply
- Hold your breath for ten seconds
- Rinse your mouth after steroids
Anyone who needs their reliever inhaler more than three times a week should ask for an asthma review, as their preventer treatment may need adjusting.
""",
    ),
    (
        "flu-season-arrives-early",
        "healthwatch",
        "conditions",
        ("flu", "vaccines"),
        """
# Flu season arrives early as GP visits rise
> Doctors urge those eligible to book their vaccine now rather than wait for the winter peak.
Family doctors are seeing more patients with flu-like illness than is usual for the time of year, with cases rising fastest among school-age children and young adults.
Health officials said the strain in circulation appears to match this year's vaccine well, but protection takes around two weeks to build after the jab. They urged people over 65, pregnant women, and those with long-term conditions such as asthma, diabetes or heart disease to book an appointment without delay.
Flu is often confused with a bad cold. It tends to start suddenly, with fever, aching muscles and exhaustion that can keep people in bed for several days. Most recover at home with rest and fluids, but flu can lead to pneumonia in frail and older people.
Staying away from work or school while feverish, washing hands often and catching coughs in a tissue all slow the spread, officials added.
""",
    ),
    (
        "statins-heart-attack-study",
        "healthwatch",
        "research",
        ("heart",),
        """
# Large study confirms statins cut heart attacks in older people
> Researchers followed more than 80,000 adults over 70 for an average of six years.
Statins reduce the risk of heart attack and stroke in people over 70 as much as in younger adults, a large observational study has found, easing doubts about prescribing the cholesterol-lowering drugs later in life.
Participants who took a statin had roughly a quarter fewer major cardiovascular events than similar people who did not. Muscle aches, the side effect patients most often report, were only slightly more common among those on the drug.
The researchers cautioned that their study was not a randomised trial, so other differences between the groups may explain part of the effect. Two randomised trials in older adults are due to report within the next few years.
Cardiologists not involved in the work said the findings support a conversation rather than an automatic prescription. For some older patients with many other medicines, the balance of benefit and burden may tip the other way.
""",
    ),
    (
        "teenagers-screens-sleep",
        "healthwatch",
        "research",
        ("sleep", "child-health"),
        """
# Screens in the bedroom cost teenagers an hour of sleep a night
> A survey of 12,000 secondary school pupils links late-night phone use to tiredness in class.
Teenagers who keep a phone or tablet in their bedroom sleep around an hour less on school nights than those who leave devices downstairs, a survey of 12,000 pupils has found.
Pupils with devices in the bedroom were also twice as likely to say they felt too tired to concentrate in lessons. The link held after accounting for age, sex and family income.
Sleep researchers say the problem is less the blue light from screens than the content: messages, games and videos keep the brain alert long after the lights go out. Teenagers also naturally fall asleep later than adults, which makes early school starts harder.
## Advice for families
- Charge phones outside the bedroom
- Keep a regular wake-up time
- Stop screens an hour before bed
The authors called on schools to include sleep in health lessons alongside diet and exercise.
""",
    ),
    (
        "bowel-cancer-home-test-kits",
        "healthwatch",
        "research",
        ("cancer",),
        """
# Home test kits find bowel cancer earlier, but many go unreturned
> Only two in three people who receive a screening kit send it back, figures show.
The home test kits posted to people aged 50 to 74 are detecting bowel cancer at an earlier and more treatable stage, but a third of the kits are never returned, according to new screening figures.
The test looks for tiny traces of blood in a stool sample. It takes a few minutes to do at home and is returned in a prepaid envelope. A positive result leads to a colonoscopy, which can also remove growths before they become cancerous.
## Who returns the kit
- Women more often than men
- Older more often than younger
- Least often in deprived areas
Charities say embarrassment and fear of the result are the main barriers. Text message reminders and a simpler sample stick have raised return rates in pilot areas.
Symptoms such as blood in the stool, a lasting change in bowel habit, or unexplained weight loss should be reported to a doctor at any age, whether or not a kit has arrived.
""",
    ),
    (
        "mediterranean-diet-heart-health",
        "healthwatch",
        "lifestyle",
        ("nutrition", "heart"),
        """
# Mediterranean-style eating linked to healthier hearts
> Olive oil, beans, fish and vegetables come out well in a twenty-year study of 25,000 women.
Women who ate a Mediterranean-style diet had about a quarter less risk of heart disease over two decades than those whose diet was least like it, researchers report.
The diet is rich in vegetables, fruit, beans, whole grains, nuts, fish and olive oil, with little red or processed meat. Much of the benefit appeared to come through lower blood pressure, less inflammation and better blood sugar control.
Dietitians point out that the pattern need not be expensive or exotic. Tinned fish, frozen vegetables, dried lentils and a bottle of rapeseed or olive oil cover most of it. Eating together at the table, or lingering over a meal at a café, rather than grabbing food on the move, is part of the tradition too.
The study was observational, so women who followed the diet may also have differed in other healthy habits. Even so, trials in people at high risk have pointed the same way, making this one of the better-supported pieces of dietary advice.
""",
    ),
    (
        "stop-smoking-services-success",
        "healthwatch",
        "lifestyle",
        ("smoking",),
        """
# Smokers three times more likely to quit with support services
> Free local stop-smoking services combine medication with weekly advice sessions.
People who use a free stop-smoking service are around three times more likely to quit for good than those who try on willpower alone, yet fewer than one smoker in ten uses one.
Services pair behavioural support from a trained adviser with medication or nicotine replacement, such as patches, gum or sprays. Advisers help people plan for the moments when cravings strike, such as after meals, with a drink, or under stress.
Quitting at any age brings benefits. Within weeks circulation and breathing improve; after a year the extra risk of heart attack is roughly halved.
What advisers recommend:
- Set a quit date and stick to it
- Combine a patch with a faster product
- Tell friends and family you are quitting
- Expect cravings to pass within minutes
Services can be found through a GP practice or pharmacy, and many now offer appointments by phone.
""",
    ),
    (
        "hay-fever-pollen-forecast",
        "healthwatch",
        "conditions",
        ("allergies",),
        """
# Pollen counts to hit “very high” as hay fever season peaks
> Grass pollen, the trigger for most sufferers, is expected to peak over the next fortnight.
Forecasters expect grass pollen levels to reach "very high" across much of the country this week, bringing misery to the one in five people who have hay fever.
Warm, dry and breezy days are the worst, with counts highest in the early evening as pollen carried up during the day settles back down. Thunderstorms can also trigger sudden asthma symptoms in people with hay fever, even those who have never had asthma before.
### Easing symptoms
- Take antihistamines before symptoms start
- Use a steroid nasal spray daily
- Shower and change after being outside
- Keep windows shut in the evening
Pharmacists say many people give up on nasal sprays too soon; they take a few days to reach full effect and work best when used every day through the season. Anyone whose hay fever affects their chest or sleep should see their doctor.
""",
    ),
    (
        "hearing-aids-dementia-risk",
        "healthwatch",
        "research",
        ("dementia",),
        """
# Treating hearing loss may slow memory decline
> Older adults with hearing problems who wore hearing aids declined more slowly in a three-year trial.
Fitting hearing aids to older people with hearing loss slowed the decline in their thinking skills by almost half over three years, in a trial among those at higher risk of dementia.
Hearing loss in mid-life is thought to be one of the largest changeable risk factors for dementia. Possible explanations include the extra mental effort of straining to hear, and the loneliness that often follows when conversation becomes hard work.
The benefit was seen only in participants who already had other risk factors, such as high blood pressure or diabetes. In healthier volunteers there was little difference, perhaps because their decline over three years was small anyway.
Experts said the results were encouraging but not proof that hearing aids prevent dementia. They urged anyone who struggles to follow conversations in noisy places to have a hearing test, which is free in many areas.
""",
    ),
    (
        "gestational-diabetes-screening-changes",
        "healthwatch",
        "conditions",
        ("pregnancy", "diabetes"),
        """
# Pregnant women to be offered earlier diabetes test
> Testing those at higher risk in early pregnancy could allow treatment to start weeks sooner.
Women at higher risk of diabetes in pregnancy will be offered a glucose test in the first trimester, rather than waiting until around 26 weeks, under new guidance for maternity units.
Gestational diabetes affects about one pregnancy in twenty. Untreated, it can lead to a larger baby, a more difficult birth and low blood sugar in the newborn. Most women manage it with changes to diet and activity, though some need tablets or insulin.
## Who is at risk
- A previous large baby
- A body mass index over 30
- Diabetes in a close relative
- Gestational diabetes before
The condition usually goes away after birth, but it raises a woman's lifetime chance of developing type 2 diabetes. Midwives will advise a yearly blood test afterwards.
""",
    ),
    (
        "weight-loss-injections-demand",
        "healthwatch",
        "research",
        ("obesity",),
        """
# Demand for weight-loss injections outstrips supply
> Specialist obesity clinics report waiting lists of more than a year as new drugs gain attention.
Weight-loss injections that mimic a gut hormone have produced average losses of 15 per cent of body weight in trials, and demand has soared far beyond what specialist clinics can meet.
The drugs reduce appetite and slow the emptying of the stomach. Side effects such as nausea are common at first, and weight tends to return when treatment stops, so doctors see them as long-term medicines rather than a quick fix.
Specialists warn against buying the injections online without a prescription. Regulators have seized counterfeit pens containing the wrong dose or no active drug at all.
Obesity doctors say the medicines work best alongside support with diet, activity and sleep, and they should be prioritised for people whose weight is causing the most harm to their health, such as those with diabetes or heart disease.
""",
    ),
    (
        "talking-therapy-waiting-times",
        "healthwatch",
        "conditions",
        ("mental-health",),
        """
# Waits for talking therapy leave people with depression in limbo
> Some patients wait over four months between assessment and their first session.
People referred for talking therapy for depression and anxiety are waiting months for treatment in some areas, even though most are assessed quickly, an analysis of official figures shows.
The gap between a first assessment and the start of therapy has become known as the "hidden wait". Charities say people often feel worse during this period, and some end up in emergency departments.
Cognitive behavioural therapy, which helps people notice and change unhelpful patterns of thinking and behaviour, is offered in one-to-one, group and online formats. Online courses with support from a therapist usually start sooner.
Anyone whose low mood is getting worse while they wait is encouraged to go back to their GP. Those having thoughts of suicide should seek urgent help from emergency services or a crisis line, which are available day and night.
""",
    ),
    (
        "measles-vaccine-catch-up",
        "healthwatch",
        "conditions",
        ("vaccines", "child-health"),
        """
# Parents urged to check children's measles vaccinations
> A rise in measles cases has prompted a catch-up campaign for the MMR jab.
Health officials have launched a catch-up campaign for the MMR vaccine after a rise in measles cases, most of them in children who had missed one or both doses.
Measles spreads more easily than almost any other infection. It usually starts with cold-like symptoms and sore red eyes, followed a few days later by a blotchy rash. It can lead to pneumonia, fits and, rarely, inflammation of the brain.
### Signs of measles
- High fever
- Runny nose and cough
- Sore, watery eyes
- A rash spreading from the head
Two doses of MMR give lifelong protection in about 99 per cent of people. It is never too late to catch up: older children and adults who missed out can get the vaccine free from their GP practice. Parents can check their child's record in the red book or by asking the practice.
""",
    ),
    (
        "strength-training-older-adults",
        "healthwatch",
        "lifestyle",
        ("exercise",),
        """
# Muscle strength matters more with age, experts say
> Only a third of people over 65 do the recommended muscle-strengthening activity.
Guidelines advise adults of every age to do activities that strengthen their muscles at least twice a week, yet most people over 65 do none, according to a national survey.
Muscle mass declines steadily from middle age. Weak legs make falls more likely, and a fall that breaks a hip can end a person's independence. Strength work also helps with balance, bone density and blood sugar control.
## No gym needed
Carrying shopping, climbing stairs, gardening and standing up from a chair without using the arms all count. Community classes such as chair-based exercise or tai chi are designed for people who have not been active for years.
Physiotherapists advise starting gently and building up over weeks. Mild muscle soreness the next day is normal; sharp pain is a sign to stop. People with heart or joint problems should check with their doctor before starting something new.
""",
    ),
    (
        "sugary-drinks-children-teeth-weight",
        "healthwatch",
        "lifestyle",
        ("nutrition", "obesity"),
        """
# Sugary drinks remain biggest source of sugar for children
> Fizzy drinks and juices supply almost a third of the added sugar children eat and drink.
Children in the UK are still consuming around twice the recommended limit of added sugar, with soft drinks, fruit juice and smoothies the largest single source, a national diet survey has found.
Sugary drinks are linked to tooth decay, the most common reason for young children to be admitted to hospital, and to excess weight gain. Unlike sugar in food, calories in drinks do little to reduce appetite.
Dentists recommend water and plain milk as the everyday drinks for children, with fruit juice limited to a small glass with a meal. Diluting squash more than the label suggests is a simple step, and sugar-free versions are widely available.
The survey also showed sugar intake falling slowly since a tax on sugary soft drinks was introduced, as manufacturers cut sugar from popular brands.
""",
    ),
)
