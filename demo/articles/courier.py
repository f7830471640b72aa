# ruff: noqa: E501  -- prose data file: one paragraph per source line reads better than wrapped text
"""The Clinic Courier articles of the demo pool, in publication order (the line markup: :mod:`demo.articles`)."""

#: (slug, site, section, topics, text) of each article
PIECES: tuple[tuple[str, str, str, tuple[str, ...], str], ...] = (
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
)
