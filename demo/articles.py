# ruff: noqa: E501  -- prose data file: one paragraph per source line reads better than wrapped text
"""The article pool of the demo news sites: 48 short health articles written for WIMS.

Each article belongs to one of the three demo sites (``site``), one section of that site, and carries
1-3 topic labels from :data:`TOPICS`. The labels are the ground truth for classification experiments;
:meth:`Article.core_lines` is the ground truth for the noise filters (every phrase a filter must keep).

The text is written in a tiny line markup so that the pool stays readable:

``# title`` / ``> standfirst`` / ``## sub-heading`` / ``### sub-heading`` / ``- bullet item`` /
``1. numbered item``; any other non-empty line is a paragraph (blank lines separate blocks).

The order of articles per site in this file is their publication order on the demo server.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Fixed topic vocabulary used as classification labels.
TOPICS: tuple[str, ...] = (
    "diabetes",
    "asthma",
    "obesity",
    "mental-health",
    "vaccines",
    "pregnancy",
    "sleep",
    "heart",
    "flu",
    "nutrition",
    "exercise",
    "allergies",
    "dementia",
    "cancer",
    "smoking",
    "child-health",
)

#: Sections of each demo site, in navigation order.
SECTIONS: dict[str, tuple[str, ...]] = {
    "healthwatch": ("conditions", "research", "lifestyle"),
    "courier": ("clinic-news", "patients", "prevention"),
    "wellbeing": ("mind", "body", "family"),
}


@dataclass(frozen=True)
class Block:
    """One block of an article body: ``p``, ``h2``, ``h3`` (text) or ``ul``/``ol`` (items)."""

    kind: str
    text: str = ""
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class Article:
    slug: str
    site: str
    section: str
    topics: tuple[str, ...]
    title: str
    standfirst: str
    blocks: tuple[Block, ...]

    def core_lines(self) -> list[str]:
        """Ground-truth core phrases: title, standfirst, then headings, paragraphs and list items in order."""
        lines = [self.title, self.standfirst]
        for block in self.blocks:
            if block.items:
                lines.extend(block.items)
            else:
                lines.append(block.text)
        return lines

    @property
    def core_text(self) -> str:
        return "\n".join(self.core_lines())

    @property
    def word_count(self) -> int:
        return len(self.core_text.split())


def parse_markup(slug: str, site: str, section: str, topics: tuple[str, ...], text: str) -> Article:
    """Build an :class:`Article` from the line markup described in the module docstring."""
    if site not in SECTIONS:
        raise ValueError(f"{slug}: unknown site {site!r}")
    if section not in SECTIONS[site]:
        raise ValueError(f"{slug}: section {section!r} is not one of {SECTIONS[site]}")
    if not 1 <= len(topics) <= 3 or any(t not in TOPICS for t in topics):
        raise ValueError(f"{slug}: topics {topics!r} must be 1-3 labels from TOPICS")
    title = standfirst = ""
    blocks: list[Block] = []
    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("### "):
            blocks.append(Block("h3", line[4:].strip()))
        elif line.startswith("## "):
            blocks.append(Block("h2", line[3:].strip()))
        elif line.startswith("# "):
            title = line[2:].strip()
        elif line.startswith("> "):
            standfirst = line[2:].strip()
        elif line.startswith("- ") or re.match(r"\d+\. ", line):
            kind = "ul" if line.startswith("- ") else "ol"
            item = line[2:].strip() if kind == "ul" else line.split(" ", 1)[1].strip()
            if blocks and blocks[-1].kind == kind:
                blocks[-1] = Block(kind, items=blocks[-1].items + (item,))
            else:
                blocks.append(Block(kind, items=(item,)))
        else:
            blocks.append(Block("p", line))
    if not title or not standfirst or not blocks:
        raise ValueError(f"{slug}: an article needs a title, a standfirst and a body")
    return Article(slug, site, section, tuple(topics), title, standfirst, tuple(blocks))


_POOL: list[Article] = []


def _a(slug: str, site: str, section: str, topics: tuple[str, ...], text: str) -> None:
    _POOL.append(parse_markup(slug, site, section, topics, text))


# --------------------------------------------------------------------------------------------------
# Health Watch Daily
# --------------------------------------------------------------------------------------------------

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

_a(
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
)

# --------------------------------------------------------------------------------------------------
# The Clinic Courier
# --------------------------------------------------------------------------------------------------

_a(
    "diabetes-foot-clinic-opens",
    "courier",
    "clinic-news",
    ("diabetes",),
    """
# New diabetes foot clinic opens at Riverside health centre
> Same-week appointments aim to catch foot ulcers before they lead to amputation.
A specialist foot clinic for people with diabetes opened this week at Riverside health centre, offering same-week appointments for anyone with a new wound, swelling or colour change on the foot.
Diabetes can damage nerves and blood vessels in the feet, so a small cut or blister may go unnoticed and heal slowly. Most amputations in people with diabetes begin with a foot ulcer that could have been treated earlier.
The clinic brings a podiatrist, a diabetes nurse and a vascular specialist together in one room, so patients no longer travel between three hospitals.
Podiatrist Amira Khalil said patients should check their feet every day:
- Look for cuts, blisters and redness
- Never walk barefoot, even indoors
- Check shoes for stones before wearing
- Get help fast if a wound appears
People with diabetes should also have a full foot check at their annual review.
""",
)

_a(
    "childrens-asthma-review-clinic",
    "courier",
    "clinic-news",
    ("asthma", "child-health"),
    """
# Saturday asthma clinics for children start next month
> Weekend appointments mean families no longer need to take time off school and work.
Children with asthma will be able to have their yearly asthma review on a Saturday morning from next month, after parents told the practice that weekday appointments meant missed lessons and lost pay.
At the review, a nurse checks the child's inhaler technique, updates their written asthma action plan and makes sure the school has a spare reliever inhaler on file.
Asthma is the most common long-term condition in children, and autumn is a risky time: attacks peak in the weeks after schools return, when colds spread quickly in classrooms.
Nurse practitioner Tom Reilly said a child who wakes at night coughing, or who needs their blue inhaler more than three times a week, is not well controlled and should be seen sooner.
Appointments can be booked through the practice reception or the online booking page.
""",
)

_a(
    "winter-flu-jab-clinics",
    "courier",
    "prevention",
    ("flu", "vaccines"),
    """
# Walk-in flu jab clinics every Saturday in October
> No appointment is needed for adults who are eligible for a free vaccine.
The practice will run walk-in flu vaccination clinics on every Saturday morning in October, alongside the usual weekday appointments.
The flu vaccine is offered free to adults over 65, pregnant women, carers, and anyone with a long-term condition such as diabetes, asthma, heart disease or kidney disease. Children aged two and three are offered a nasal spray vaccine at the practice; older children receive it at school.
### What to bring
- Your NHS number if you have it
- A list of your medicines
- A short-sleeved top
Practice manager Elaine Price said the clinics vaccinated more than 1,800 people last year. "It takes five minutes and is the best protection we have against a winter in bed," she said.
Mild side effects such as a sore arm or a slight temperature can last a day or two. The vaccine cannot give you flu.
""",
)

_a(
    "blood-pressure-checks-pharmacy",
    "courier",
    "prevention",
    ("heart",),
    """
# Free blood pressure checks now available at local pharmacies
> Adults over 40 can walk in for a check without seeing their doctor first.
Pharmacies across the district are now offering free blood pressure checks to adults aged 40 and over, in a drive to find the many people who have high blood pressure without knowing it.
High blood pressure rarely causes symptoms, but it is a leading cause of strokes, heart attacks and kidney disease. Around one in three adults has it, and about a third of them have never been diagnosed.
## How the check works
The pharmacist takes two or three readings with a cuff on the upper arm. If the result is high, you may be given a monitor to wear for a day at home.
## Bringing it down
- Cut down on salt
- Keep to a healthy weight
- Be active most days
- Drink less alcohol
Readings that are very high will be passed straight to your GP practice for follow-up the same day.
""",
)

_a(
    "patient-story-insomnia-cbt",
    "courier",
    "patients",
    ("sleep", "mental-health"),
    """
# "I had not slept properly for ten years": a patient's story of insomnia
> A retired teacher describes how a six-week course changed her nights.
For a decade, Margaret Ellis, 67, lay awake most nights until three or four in the morning, then dozed through the afternoon. Sleeping tablets helped at first but soon stopped working.
Last spring her GP referred her to a six-week course of cognitive behavioural therapy for insomnia, a structured programme that retrains the body's sleep habits. It is now the recommended first treatment for long-term insomnia.
The hardest part, she says, was the rule to go to bed only when sleepy and to get up at the same time each day, however badly she had slept. "The first fortnight I was exhausted. By week four I was falling asleep within half an hour."
She also learned to stop clock-watching and to leave the bedroom when she could not sleep. Her low mood, which she had put down to age, lifted as her sleep improved.
The course is available free online or in small groups at the health centre.
""",
)

_a(
    "cervical-screening-invitations",
    "courier",
    "prevention",
    ("cancer",),
    """
# Cervical screening: why your invitation matters
> One in three women aged 25 to 64 is not up to date with screening, the practice says.
The practice is writing to women who are overdue for cervical screening, after figures showed that around a third of eligible patients had not attended.
Screening checks a small sample of cells for the human papillomavirus, known as HPV, which causes almost all cervical cancers. If HPV is found, the cells are checked for changes that can be treated long before cancer develops.
Practice nurse Sian Morgan said many women put off the test because they worry it will hurt or feel embarrassed. "It takes a few minutes. You can bring someone with you, ask for a smaller speculum, or stop at any time," she said.
Things that can help:
- Ask for a female nurse
- Book early in the day
- Wear a skirt or long top
- Tell the nurse if you are anxious
Anyone with bleeding between periods or after sex should see a doctor without waiting for their next invitation.
""",
)

_a(
    "peanut-allergy-early-introduction",
    "courier",
    "patients",
    ("allergies", "child-health"),
    """
# Early peanut introduction "protects babies from allergy", parents told
> Giving smooth peanut butter from around six months can lower the chance of allergy.
Parents are being advised that introducing foods containing peanut and egg from around six months of age, as part of a normal diet, can reduce the chance of a child developing an allergy to them.
The advice reverses older guidance that told families to delay these foods. Studies have since shown that babies who eat peanut regularly in their first year are far less likely to become allergic than those who avoid it.
Whole nuts should never be given to children under five because of the choking risk; smooth peanut butter stirred into a familiar food is the usual way to start.
Babies with severe eczema, or who have already reacted to a food, are at higher risk and should be seen by a doctor or allergy clinic before peanut is introduced.
Health visitor Priya Nair said most families can start at home once their baby is eating other solid food happily.
""",
)

_a(
    "memory-clinic-waiting-times",
    "courier",
    "clinic-news",
    ("dementia",),
    """
# Memory clinic adds evening sessions to cut waits for dementia assessment
> The average wait for a first appointment has reached five months.
The district memory clinic will run evening sessions twice a week from next month, in an effort to cut the wait for a first dementia assessment, which now averages five months.
An assessment usually includes memory and thinking tests, a review of medicines and blood tests, and sometimes a brain scan. Many people referred turn out to have another cause for their symptoms, such as depression, a thyroid problem or side effects of medication, which can often be treated.
For those who do receive a diagnosis of dementia, an earlier answer means earlier access to treatment, support groups and time to plan for the future while the person can still take part fully in decisions.
Clinic lead Dr Hannah Okafor said families should not wait for a crisis. "If you are worried about a relative's memory, come with them to the GP and describe what you have noticed," she said.
""",
)

_a(
    "antenatal-classes-return",
    "courier",
    "clinic-news",
    ("pregnancy",),
    """
# Face-to-face antenatal classes return at the health centre
> Free courses for parents-to-be run on Tuesday evenings and Saturday mornings.
Antenatal classes are back in the health centre's community room, with midwives running a six-week course for expectant parents from around 30 weeks of pregnancy.
The course covers labour and birth, pain relief, feeding, and caring for a newborn. Birth partners are encouraged to attend, and there is a separate session for people expecting twins.
### Topics covered
- Signs that labour has started
- Breathing and positions for labour
- Breastfeeding and bottle feeding
- Safe sleep for your baby
- Looking after your mood
Midwife Carla Santos said the classes are as much about meeting other parents as learning facts. "Many of the groups stay in touch long after their babies arrive," she said.
Places are limited to twelve couples per course. Ask your community midwife to book a place at your next appointment.
""",
)

_a(
    "vaping-advice-for-smokers",
    "courier",
    "prevention",
    ("smoking",),
    """
# Vaping can help smokers quit, but not for children, doctors say
> The practice will now include e-cigarettes in its stop-smoking advice for adults.
Adult smokers who want to quit can get advice on using e-cigarettes at the practice's stop-smoking clinic, which will now offer them alongside patches and medication.
Vaping is not risk-free, but it is far less harmful than smoking because it does not involve burning tobacco, which produces tar and carbon monoxide. Trials have found that smokers who switch to vaping with support are more likely to quit than those using nicotine patches alone.
Doctors stress that the aim is to stop smoking completely. Many people use both for a while; the benefits only come once cigarettes are given up altogether.
The advice is strictly for adult smokers. The practice is worried about rising vaping among teenagers who have never smoked, and nicotine is highly addictive.
Smokers can book a first appointment with the stop-smoking adviser at reception or by phone. Sessions are free.
""",
)

_a(
    "weight-management-group",
    "courier",
    "patients",
    ("obesity", "nutrition"),
    """
# Weight management group helps patients lose and keep it off
> Members of the twelve-week group lost an average of five per cent of their weight.
A twelve-week weight management group run by the practice dietitian has helped members lose an average of five per cent of their body weight, with most keeping it off a year later.
The group meets weekly in the health centre. Rather than a strict diet, members learn to plan meals, read food labels, manage portion sizes, and spot the situations in which they tend to overeat.
## Small changes
Member David Chen, 52, lost just over a stone. "I did not give up anything I love. I just stopped eating in front of the television and started walking to work," he said.
Losing five per cent of body weight can lower blood pressure and blood sugar, ease joint pain and reduce the risk of type 2 diabetes.
The group is open to adults with a body mass index over 30, or over 27 with a related health problem. Ask your GP or practice nurse for a referral.
""",
)

_a(
    "postnatal-depression-support-group",
    "courier",
    "patients",
    ("pregnancy", "mental-health"),
    """
# New mothers' support group tackles postnatal depression
> A weekly group led by a health visitor offers a place to talk without judgement.
A weekly support group for parents with postnatal depression has started at the health centre, led by a health visitor and a counsellor.
Postnatal depression affects more than one in ten women in the year after giving birth, and it can affect fathers and partners too. It is different from the "baby blues", the tearfulness that many women feel in the first two weeks, which passes on its own.
Signs include persistent low mood, losing interest in things, feeling unable to cope or to bond with the baby, and frightening thoughts. Many parents hide these feelings because they fear being judged.
Health visitor Joanne Pike said the group is informal and babies are welcome. "Parents tell us the relief of hearing someone else say the same thing is enormous," she said.
Parents who feel they may harm themselves or their baby should seek help immediately from their GP, their midwife or emergency services.
""",
)

_a(
    "heart-failure-nurse-home-visits",
    "courier",
    "patients",
    ("heart",),
    """
# Heart failure nurse keeps patients out of hospital
> Home visits and daily weighing help spot fluid build-up early.
A specialist heart failure nurse who visits patients at home has helped to halve emergency admissions among people with the condition in the practice area, a year-long review has found.
Heart failure means the heart is not pumping as well as it should. Fluid can build up in the lungs and legs, causing breathlessness and swelling. Patients often take several medicines that need careful adjustment.
Nurse Peter Walsh teaches patients to weigh themselves every morning. A sudden gain of two kilograms over three days is an early sign of fluid build-up, and a phone call allows him to adjust water tablets before the patient becomes seriously unwell.
Patient Rose Adeyemi, 78, said the visits changed her life. "I used to end up in hospital every winter. This year I have not been in once."
The practice hopes to fund a second nurse next year.
""",
)

_a(
    "shingles-vaccine-over-65",
    "courier",
    "prevention",
    ("vaccines",),
    """
# Shingles vaccine now offered from age 65
> A new two-dose vaccine is being offered to more age groups in stages.
Patients turning 65 are now eligible for a free shingles vaccine, as the programme expands to protect people at younger ages than before.
Shingles is caused by the chickenpox virus waking up again, often decades later. It causes a painful rash, usually on one side of the body, and in some people the nerve pain lasts for months after the rash heals.
### Who can have it
- People turning 65
- Those aged 70 to 79
- Adults over 50 with weakened immunity
The new vaccine does not contain live virus, so it is also suitable for many people with weakened immune systems. Two doses are given, between two and six months apart.
The practice will contact eligible patients, but anyone who thinks they qualify is welcome to ask at reception.
""",
)

_a(
    "couch-to-5k-running-group",
    "courier",
    "clinic-news",
    ("exercise",),
    """
# Practice launches Couch to 5K running group for beginners
> Staff and patients will train together for nine weeks towards a local 5K run.
Patients who have never run before are invited to join a Couch to 5K group starting from the health centre car park every Wednesday evening, led by two practice nurses.
The nine-week plan begins with one minute of running followed by ninety seconds of walking, repeated eight times, and builds up gradually until participants can run for thirty minutes without stopping.
Regular physical activity lowers the risk of heart disease, type 2 diabetes, depression and several cancers. Running in a group makes it easier to keep going on cold, dark evenings.
Nurse Fiona Grant said the group is for all shapes, sizes and speeds. "Nobody gets left behind. We finish together," she said.
People with heart problems, chest pain or dizziness during activity should speak to their doctor first. Good running shoes are the only equipment needed.
""",
)

_a(
    "skin-cancer-mole-checks",
    "courier",
    "prevention",
    ("cancer",),
    """
# Know your moles: skin cancer cases rise after sunny summers
> Doctors explain which changes in a mole need to be checked quickly.
Skin cancer referrals to the practice have risen by a fifth compared with last year, and doctors are urging patients to check their skin regularly and to know which changes matter.
Melanoma, the most serious type, often appears as a new mole or a change in an existing one. Caught early, it can usually be removed with a small operation.
### The ABCDE checklist
- Asymmetry: two halves differ
- Border: ragged or blurred edges
- Colour: several shades
- Diameter: wider than 6mm
- Evolving: changing in size or shape
Sunburn, especially in childhood, raises the risk. Dermatologists recommend shade in the middle of the day, clothing and hats, and sunscreen of SPF 30 or higher, reapplied often.
Anyone with a mole that bleeds, itches or is changing should book an appointment rather than waiting to see what happens.
""",
)

# --------------------------------------------------------------------------------------------------
# Wellbeing Times
# --------------------------------------------------------------------------------------------------

_a(
    "winter-blues-light-therapy",
    "wellbeing",
    "mind",
    ("mental-health", "sleep"),
    """
# Beating the winter blues: does light therapy work?
> Short, dark days leave many people low and sleepy. Here is what the evidence says.
As the clocks go back, many of us notice we want to sleep more, crave carbohydrates and feel flat. For some, these changes are severe enough to be called seasonal affective disorder, a form of depression that returns each winter.
Light therapy, sitting in front of a bright lamp for around thirty minutes each morning, is one of the better-studied treatments. Trials suggest it helps many people with seasonal depression within a couple of weeks, though the quality of the evidence is mixed.
The lamps should provide around 10,000 lux, far brighter than ordinary room lighting. They are not suitable for everyone; people with eye conditions, or who take medicines that increase sensitivity to light, should check with a doctor first.
Getting outside in daylight, even on grey days, also helps. A lunchtime walk provides more light than most indoor lamps. If low mood lasts for weeks or affects daily life, talking therapy and medication are effective too.
""",
)

_a(
    "anxiety-breathing-exercises",
    "wellbeing",
    "mind",
    ("mental-health",),
    """
# Five-minute breathing exercises that calm an anxious mind
> Slow breathing sends a signal to the body that it is safe to stand down.
When we are anxious, breathing becomes fast and shallow, which can cause dizziness, tingling and a racing heart. These sensations can make anxiety feel worse, feeding a vicious circle.
Slowing the breath, particularly the out-breath, activates the part of the nervous system that calms the body. Psychologists often teach simple breathing exercises as a first step in managing anxiety and panic.
Try this when you feel tension rising:
1. Sit comfortably and drop your shoulders
2. Breathe in through your nose for four
3. Hold gently for a count of two
4. Breathe out slowly for six
5. Repeat for three to five minutes
Practising when you are already calm makes the technique easier to use when you need it. Breathing exercises are not a cure, but they are a useful tool to carry around.
If anxiety is stopping you from doing things you want to do, talk to your GP about talking therapies, which work well for most anxiety problems.
""",
)

_a(
    "sleep-hygiene-basics",
    "wellbeing",
    "body",
    ("sleep",),
    """
# The basics of a good night's sleep
> Most adults need seven to nine hours. Small habits make the biggest difference.
Around a third of adults say they sleep badly at least a few nights a week. Poor sleep affects mood, concentration and appetite, and over years it is linked to heart disease, diabetes and depression.
Sleep experts say the body clock thrives on routine. Going to bed and getting up at the same time every day, including weekends, is the single most useful habit.
## Habits that help
- Get daylight early in the day
- Avoid caffeine after lunchtime
- Keep the bedroom cool and dark
- Wind down for an hour before bed
## Habits that harm
- Alcohol as a nightcap
- Long naps late in the day
- Lying awake watching the clock
If you cannot sleep after about twenty minutes, get up, do something quiet in dim light and go back to bed when sleepy. Snoring with pauses in breathing, or feeling sleepy during the day despite a full night in bed, is worth discussing with a doctor.
""",
)

_a(
    "walking-football-heart-health",
    "wellbeing",
    "body",
    ("exercise", "heart"),
    """
# Walking football: the gentle game winning over older men
> No running, no tackling from behind, and a real boost for heart health.
Walking football began as a way to keep older players in the game and has grown into a league with thousands of members. The rules ban running, and the ball must stay below head height.
For many players it is their first regular exercise in decades. Sessions raise the heart rate enough to count towards the recommended 150 minutes of moderate activity a week, and researchers have recorded falls in blood pressure and resting heart rate among regular players.
The social side may matter as much as the exercise. Several players said the weekly match, and the cup of tea afterwards, had given them friends and a reason to get out of the house after retirement or bereavement.
Clubs welcome beginners, including people with heart conditions, joint replacements or type 2 diabetes, though they advise a chat with your doctor first. Women's walking football is growing fast too.
""",
)

_a(
    "fibre-gut-health",
    "wellbeing",
    "body",
    ("nutrition",),
    """
# Why fibre matters for your gut and your heart
> Most of us eat only two-thirds of the recommended 30g a day.
Fibre, found in plant foods, keeps the digestive system moving and feeds the bacteria that live in the gut. Diets high in fibre are linked to lower rates of heart disease, type 2 diabetes and bowel cancer.
Yet most adults fall well short of the recommended 30 grams a day. A typical day of white bread, cereal and pasta may provide barely half that.
Easy swaps to add more fibre:
- Wholemeal bread instead of white
- Oats or bran cereal at breakfast
- Beans or lentils in stews and soups
- Potatoes cooked with their skins
- Nuts and fruit as snacks
Increase fibre gradually, over a few weeks, to avoid wind and bloating, and drink plenty of fluid, because fibre needs water to do its job.
People with some bowel conditions, such as Crohn’s disease, may be advised to eat less of certain fibres, so check with a dietitian if you have one.
""",
)

_a(
    "toddler-fussy-eating",
    "wellbeing",
    "family",
    ("child-health", "nutrition"),
    """
# Fussy eaters: how to handle a toddler who refuses vegetables
> Refusing new foods is a normal stage of development. Patience usually wins.
Almost every parent of a toddler has watched a carefully cooked meal pushed away. Fussy eating peaks between the ages of two and five, and in most children it is a normal stage rather than a problem.
Children often need to try a new food ten to fifteen times before they accept it. Offering a small amount alongside foods they already like, without pressure, gives them the chance to get used to it.
Dietitians advise against bribes, such as pudding as a reward for eating vegetables, because they teach children that vegetables are something unpleasant to be endured.
Eating together as a family helps: children copy what adults eat. Letting toddlers help wash vegetables or choose fruit at the shop can make them curious to taste.
Talk to your health visitor if your child is losing weight, eats only a handful of foods, or if mealtimes have become very stressful.
""",
)

_a(
    "morning-sickness-tips",
    "wellbeing",
    "family",
    ("pregnancy",),
    """
# Morning sickness: what helps, and when to get help
> Nausea affects most pregnant women in early pregnancy, and not only in the morning.
Feeling sick, and sometimes being sick, is common in the first three months of pregnancy. Despite its name, morning sickness can strike at any time of day. For most women it settles by around 16 to 20 weeks.
## What may help
- Eat small meals often
- Try plain biscuits before getting up
- Sip cold drinks through the day
- Rest, as tiredness makes nausea worse
- Ginger may ease symptoms
## When to get help
A small number of women develop hyperemesis gravidarum, severe sickness that can lead to dehydration. Signs include being unable to keep down food or fluids, passing very little dark urine, and feeling dizzy or faint. Effective anti-sickness medicines that are safe in pregnancy are available, and nobody should struggle on without help.
""",
)

_a(
    "caring-for-parent-with-dementia",
    "wellbeing",
    "family",
    ("dementia", "mental-health"),
    """
# Caring for a parent with dementia without losing yourself
> Carers are at high risk of depression and exhaustion. Support exists, but it has to be asked for.
When Sarah Whitfield's father was diagnosed with Alzheimer's disease, she moved back into the family home. Three years on, she is his full-time carer and admits there were months when she barely left the house.
Family carers of people with dementia report high levels of stress, poor sleep and depression. Many do not think of themselves as carers at all, so they never ask for the help they are entitled to.
A carer's assessment from the local council can lead to respite breaks, day centres and practical help at home. Carers can also ask their GP to note their role on their own record, which can mean flexible appointments and a free flu jab.
Support groups, online forums and helplines put carers in touch with others in the same position. "Hearing someone say it is normal to feel angry was a turning point," said Sarah.
""",
)

_a(
    "smoke-free-homes-children",
    "wellbeing",
    "family",
    ("smoking", "child-health"),
    """
# Smoke-free homes protect children's lungs
> Smoke lingers for hours, even with the window open or in another room.
Children who live with smokers are more likely to get chest infections, asthma attacks, ear infections and meningitis, and babies exposed to smoke are at higher risk of sudden infant death.
Smoke spreads quickly through a house and lingers in the air for up to five hours. Opening a window or smoking in another room does little to protect children, and particles settle on furniture, clothes and toys.
Health visitors encourage parents who smoke to make their home and car completely smoke-free, always stepping outside and closing the door behind them. Smoking in a car with anyone under 18 is illegal.
Making the home smoke-free is often a first step towards quitting altogether. Free support, including nicotine replacement therapy, is available to parents, and to pregnant women who want to stop.
Children of parents who smoke are also more likely to start smoking themselves.
""",
)

_a(
    "asthma-and-exercise",
    "wellbeing",
    "body",
    ("asthma", "exercise"),
    """
# Exercising with asthma: how to stay active safely
> Asthma should not stop you being active. Many Olympic athletes have it.
Some people with asthma avoid exercise because it makes them wheezy or breathless. But regular activity improves fitness and lung health, and well-controlled asthma should not hold anyone back.
If exercise triggers your symptoms, it may be a sign that your asthma is not as well controlled as it could be. An asthma review can check whether your preventer treatment needs adjusting.
Tips for exercising with asthma:
- Keep your reliever inhaler with you
- Warm up gradually for ten minutes
- Cover your mouth below 5°C
- Cool down slowly afterwards
Swimming is often recommended because warm, moist air is less likely to trigger symptoms, though some people react to pool chlorine.
If your chest tightens during exercise, stop and use your reliever. If it does not help within a few minutes, or you are struggling to speak, follow your asthma action plan and call for help.
""",
)

_a(
    "eczema-and-food-allergy",
    "wellbeing",
    "family",
    ("allergies",),
    """
# Eczema and food allergy: what parents need to know
> Babies with severe eczema are more likely to develop food allergies, but foods are rarely the cause of eczema itself.
Eczema, which makes skin dry, itchy and inflamed, affects about one child in five. Many parents suspect that something in their child's diet is to blame, and some cut out milk, wheat or eggs in the hope of a cure.
Specialists say food is rarely the main cause of eczema, and unnecessary restricted diets can leave children short of nutrients. The link runs mostly the other way: when the skin barrier is damaged, the immune system may meet food proteins through the skin and become allergic to them.
That is why looking after the skin matters. Regular use of moisturising creams, applied generously several times a day, and steroid creams for flare-ups as prescribed, are the foundations of treatment.
If a child reacts within minutes of eating a food, with swelling, hives or vomiting, that food should be avoided and the child seen by a doctor, who may refer them to an allergy clinic.
""",
)

_a(
    "loneliness-and-mental-health",
    "wellbeing",
    "mind",
    ("mental-health",),
    """
# Loneliness is bad for your health. Here is how to tackle it
> Long-term loneliness is linked to depression, poor sleep and heart disease.
Around one in four adults say they feel lonely some or all of the time. Loneliness is not the same as being alone: people can feel lonely in a busy office or a full house.
Researchers have linked long-term loneliness to depression, anxiety, poor sleep, high blood pressure and a shorter life. It can also become self-perpetuating, as people who feel lonely start to withdraw further.
Small steps can help. Volunteering, joining a class or a walking group, or simply chatting to a neighbour can build connections over time. Many people find it easier to start with an activity where the focus is on doing something together, rather than on talking.
GP practices increasingly offer "social prescribing", where a link worker helps people find local groups and activities that suit them.
If loneliness has led to persistent low mood, talking to a doctor is a good first step.
""",
)

_a(
    "hpv-vaccine-teenagers",
    "wellbeing",
    "family",
    ("vaccines", "cancer"),
    """
# The HPV vaccine: protecting teenagers against cancer later in life
> The jab offered at school could prevent most cervical cancers and several others.
All pupils aged 12 to 13 are offered the HPV vaccine at school. It protects against the human papillomavirus, which causes almost all cervical cancers as well as some cancers of the mouth, throat, anus and genitals.
Since the vaccine was introduced, cervical cancer rates among young women who were vaccinated at school have fallen by almost 90 per cent, according to a large study.
The vaccine works best when given before a young person is exposed to the virus, which is why it is offered in early adolescence. Boys have been included since 2019, as they can carry and spread the virus and develop HPV-related cancers themselves.
Side effects are usually mild, such as a sore arm or headache. Anyone who missed the vaccine at school can still have it free up to the age of 25.
Vaccinated women still need cervical screening, as the vaccine does not protect against every type of HPV.
""",
)

_a(
    "active-play-childhood-obesity",
    "wellbeing",
    "family",
    ("obesity", "child-health"),
    """
# Active play, not diets, is the answer to childhood weight gain
> Children need at least an hour of activity a day; few get it.
One in three children leaves primary school above a healthy weight. Experts say the answer lies not in putting children on diets but in changing the family's everyday routine.
Children aged 5 to 18 should be active for an average of at least 60 minutes a day, yet only around half manage it. Screen time, car journeys and fewer safe places to play all play a part.
Ideas for more active days:
- Walk or scoot to school
- Play outside after tea
- Dance to music at home
- Take family walks at weekends
Focus on health rather than weight, and avoid labelling foods as good or bad. Children whose parents criticise their bodies are more likely to develop eating problems later.
A health visitor or school nurse can help families who are worried about a child's weight, and many areas run free family programmes that combine cooking and activity.
""",
)

_a(
    "teenager-type-1-diabetes",
    "wellbeing",
    "mind",
    ("diabetes", "mental-health"),
    """
# Growing up with type 1 diabetes: a teenager's view
> Seventeen-year-old Josh on glucose sensors, exams and the stress of always being "on".
Josh Morgan was diagnosed with type 1 diabetes at the age of nine, after weeks of unquenchable thirst and weight loss. Type 1 diabetes happens when the immune system destroys the cells in the pancreas that make insulin, so it has to be replaced every day.
Now 17, he wears a sensor on his arm that sends his glucose level to his phone every few minutes, and an insulin pump that he adjusts for meals and exercise. "The technology is brilliant, but you never get a day off," he says.
Teenagers with type 1 diabetes are at higher risk of anxiety, depression and eating problems, and the hormonal changes of puberty make glucose levels harder to predict. Diabetes teams now include psychologists for this reason.
Josh says talking to other young people with diabetes has helped most. He now volunteers at a summer camp for children with the condition.
""",
)

_a(
    "cold-or-flu",
    "wellbeing",
    "body",
    ("flu",),
    """
# Is it a cold or flu? How to tell the difference
> Both are caused by viruses, but flu usually hits harder and faster.
Colds and flu share many symptoms, and both are caused by viruses, so antibiotics will not help either. But they differ in how quickly they start and how ill they make you feel.
## Signs of a cold
- Comes on gradually
- Mainly nose and throat
- You can usually carry on
## Signs of flu
- Starts suddenly
- Fever and aching body
- Exhaustion that keeps you in bed
Most people with either illness can look after themselves at home with rest, fluids and paracetamol or ibuprofen for fever and aches.
Seek medical advice if you are pregnant, over 65, have a long-term condition, or if symptoms last more than a week. Difficulty breathing, chest pain or confusion need urgent help. A yearly flu vaccine is the best way to avoid flu in the first place.
""",
)


#: The whole pool, in publication order per site.
ARTICLES: tuple[Article, ...] = tuple(_POOL)
_BY_KEY: dict[tuple[str, str], Article] = {(a.site, a.slug): a for a in ARTICLES}
if len(_BY_KEY) != len(ARTICLES):
    raise RuntimeError("duplicate article slug within a demo site")


def articles_for_site(site: str) -> tuple[Article, ...]:
    """The pool articles of one of the three demo sites, in publication order."""
    return tuple(a for a in ARTICLES if a.site == site)


def get_article(site: str, slug: str) -> Article:
    try:
        return _BY_KEY[(site, slug)]
    except KeyError:
        raise KeyError(f"no article {slug!r} on demo site {site!r}") from None
