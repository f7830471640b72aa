# ruff: noqa: E501  -- prose data file: one paragraph per source line reads better than wrapped text
"""The Morning Pulse articles of the demo pool, in publication order (the line markup: :mod:`demo.articles`).

Written for the fourth demo site, the one ``make run`` serves but leaves for the newcomer to register: its own
stories, none retold from the three other sites, so that WIMS finds no near-duplicate among them."""

#: (slug, site, section, topics, text) of each article
PIECES: tuple[tuple[str, str, str, tuple[str, ...], str], ...] = (
    (
        "pharmacies-offer-free-blood-pressure-checks-over-40s",
        "pulse",
        "care",
        ("heart",),
        """
# Pharmacies to offer free blood pressure checks to everyone over 40
> No appointment will be needed, and readings above the safe range will be passed straight to the patient's surgery.
Community pharmacies across the region will measure the blood pressure of any adult over forty who walks in, under a scheme agreed between pharmacists and the local health board.
High blood pressure rarely causes symptoms, and around one in three adults who have it do not know. Left untreated, it strains the arteries and raises the risk of stroke, heart attack and kidney disease.
Pharmacists will use a validated upper-arm cuff and take two readings, several minutes apart, with the customer seated in a private consultation room. A raised result will be sent electronically to the patient's own practice, which will invite them for a longer check.
## What to bring
- A list of any tablets you take
- Your surgery's name
- Ten minutes to sit quietly first
The board hopes the checks will find thousands of people whose pressure has crept up without them noticing.
""",
    ),
    (
        "vitamin-d-tablets-did-not-prevent-falls-older-adults",
        "pulse",
        "science",
        ("nutrition",),
        """
# Vitamin D tablets did not prevent falls in a large trial of older adults
> Four years of daily supplements made no difference to falls or broken bones in people who were not short of the vitamin.
Taking a daily vitamin D supplement did not protect healthy older adults from falls, researchers reported after following more than five thousand volunteers aged seventy and over for four years.
Half of the volunteers took the vitamin and half took a dummy tablet. By the end, the two groups had fallen just as often and broken just as many bones, and their muscle strength, measured by a grip test, was the same.
The findings apply to people with normal levels in their blood. Those who rarely go outdoors, who cover their skin, or who live in care homes may still lack the vitamin, and guidance to take a modest dose in the darker months has not changed.
"Supplements are not a shortcut to strong legs," the trial's statistician said. Balance classes, good lighting at home and a review of sedating medicines did more to prevent falls in earlier studies, she added.
""",
    ),
    (
        "allotment-gardening-lifts-mood-study",
        "pulse",
        "living",
        ("mental-health", "exercise"),
        """
# An afternoon on the allotment lifts mood for days, gardeners' diaries suggest
> Volunteers who spent two sessions a week growing vegetables reported less stress than those on the waiting list.
People who took on a shared allotment plot reported feeling calmer and more cheerful within a month, according to a study that asked new gardeners to keep a mood diary.
The researchers compared beginners who had just been given a plot with people still waiting for one. After six months, the gardeners scored lower on a standard stress questionnaire, and the difference grew over the summer as harvests came in.
Digging, weeding and carrying water count as moderate exercise, and the plots gave people a reason to talk to their neighbours. Several diaries mentioned swapping seedlings and recipes as highlights of the week.
## Getting a plot
Waiting lists are long in many towns. Councils suggest asking about half plots, which are quicker to come by, or joining a community garden where tools and advice are shared.
""",
    ),
    (
        "hay-fever-ask-your-pharmacist-before-the-pollen-peaks",
        "pulse",
        "care",
        ("allergies",),
        """
# Hay fever sufferers told to start their nasal spray before the pollen peaks
> A steroid spray works best when it is used every day from a fortnight before symptoms usually begin.
Pharmacists are urging people with hay fever to plan ahead rather than reach for tablets once their eyes are already streaming.
Steroid nasal sprays calm the inflammation inside the nose, but they take days to reach their full effect. Used daily from early in the season, they prevent much of the sneezing and blockage that make summer miserable for about one adult in five.
Many people use the spray wrongly, pointing it towards the middle of the nose and sniffing hard, so that the medicine runs down the throat. Aiming slightly outwards, towards the ear on the same side, and breathing in gently keeps it where it works.
- Check the pollen forecast each morning
- Shower and change after a day outdoors
- Keep bedroom windows shut at night
Anyone whose hay fever brings on wheezing should see their practice nurse, as it can be a sign of allergic asthma.
""",
    ),
    (
        "shingles-jab-linked-to-fewer-dementia-diagnoses",
        "pulse",
        "science",
        ("vaccines", "dementia"),
        """
# Shingles jab linked to fewer dementia diagnoses in a natural experiment
> People who just qualified for the vaccine by their date of birth were diagnosed with dementia less often over seven years.
Older adults who received the shingles vaccine were around a fifth less likely to be diagnosed with dementia over the following seven years, a study that took advantage of a strict age cut-off has found.
When the vaccine was introduced, only people born after a certain date were eligible. Because those born a week either side of that date are alike in almost every way, comparing them is close to a randomised trial.
The researchers cannot yet say why the jab might help. One idea is that the virus, which lies dormant in nerves for decades after chickenpox, does damage in the brain when it reawakens.
Independent experts called the result intriguing but said it needs confirming. The vaccine is already offered to protect against the painful rash itself, and uptake remains lower than health officials would like.
""",
    ),
    (
        "packed-lunches-carry-twice-the-salt-of-school-meals",
        "pulse",
        "living",
        ("nutrition", "child-health"),
        """
# Packed lunches carry twice the salt of a school dinner, survey finds
> Crisps, processed ham and white bread add up quickly in a child's lunchbox, dietitians warn.
A survey of more than eight hundred lunchboxes in primary schools found that the average packed lunch contained twice as much salt as the hot meal served in the same canteen.
Most of the salt came from a few foods: sliced processed meat, cheese strings, crisps and shop-bought bread. Only one lunchbox in six held any vegetables, although most contained a piece of fruit.
Dietitians stressed that parents were not to blame. Lunchboxes are packed in a hurry, and many products sold for children carry health claims on the front that distract from the label on the back.
## Easy swaps
- Leftover pasta instead of a ham sandwich
- Carrot sticks or cherry tomatoes instead of crisps
- Plain yoghurt with fruit instead of a pudding pot
Schools taking part in the survey plan to send families a week of lunch ideas costing less than the shop-bought versions.
""",
    ),
    (
        "midwife-led-birth-centre-reopens-after-staffing-pause",
        "pulse",
        "care",
        ("pregnancy",),
        """
# Midwife-led birth centre reopens after a year-long pause for staffing
> Women with straightforward pregnancies can once again choose to give birth away from the main labour ward.
A birth centre run by midwives has reopened its doors after closing for more than a year because there were not enough staff to keep it safe.
The centre offers birthing pools, low lighting and a home-like setting for women whose pregnancies have gone without complications. If problems arise during labour, the main obstetric unit is a short trolley ride away in the same building.
Twelve midwives have been recruited, several of them newly qualified, and the hospital says it now has enough to cover every shift. During the closure, women who had planned to use the centre were moved to the labour ward, and some said they felt their wishes had been ignored.
"We heard that loud and clear," the head of midwifery said. Expectant parents can visit on the first Saturday of each month to see the rooms and ask questions.
""",
    ),
    (
        "night-shift-workers-sleep-and-blood-pressure",
        "pulse",
        "science",
        ("sleep", "heart"),
        """
# Years of night shifts leave their mark on blood pressure, nurses' records show
> Rotating between days and nights appeared more harmful than working nights only.
Nurses who had worked rotating night shifts for ten years or more were more likely to develop high blood pressure than colleagues who worked days, an analysis of staff health records has found.
The risk was highest among those whose rotas changed every few days, leaving no time for the body clock to adjust. Nurses on permanent nights fared somewhat better, perhaps because their sleep followed a steady pattern.
Sleep researchers said the body's internal clock sets the rhythm of blood pressure, hormones and digestion, and repeated disruption keeps it out of step.
Hospitals cannot do without night staff, the authors accept. They suggest rotas that move forward, from mornings to evenings to nights, rather than backwards, and a protected sleep period after the last night of a run.
""",
    ),
    (
        "teenagers-who-vape-want-help-to-stop",
        "pulse",
        "living",
        ("smoking", "child-health"),
        """
# Most teenagers who vape say they would like help to stop
> A school survey found that two in three regular users had already tried to give up at least once.
Two thirds of secondary school pupils who vape regularly have tried to stop, and most would use a support service if one were offered at school, a survey of nearly four thousand pupils has found.
Many said they started because friends did and kept going because they felt anxious or irritable without it. Disposable devices, which are cheap and come in sweet flavours, were the most common choice.
Stop-smoking advisers say young people respond best to short, practical sessions rather than warnings. They recommend cutting down gradually, noticing the moments that trigger a craving, and asking a friend to quit at the same time.
Parents who find a vape are advised to stay calm and ask questions rather than confiscate it straight away, so that the conversation can continue.
""",
    ),
    (
        "mobile-eye-screening-vans-diabetes",
        "pulse",
        "care",
        ("diabetes",),
        """
# Eye screening vans to visit supermarket car parks for people with diabetes
> Photographs of the back of the eye can catch damage years before it affects sight.
People with diabetes will be able to have their annual eye screening in a van parked outside their local supermarket, in an effort to reach those who miss appointments at the hospital.
High blood sugar can damage the tiny blood vessels of the retina without any early symptoms. Screening photographs spot the changes in time for laser or injection treatment to save vision.
About one invitation in five is currently not taken up, often because the clinic is hard to reach by bus or the drops used to widen the pupils make driving home impossible. The vans will run on weekday evenings and Saturday mornings.
Patients are still advised to bring sunglasses and arrange a lift, as the drops blur vision for several hours.
""",
    ),
    (
        "bowel-cancer-home-test-offered-from-fifty",
        "pulse",
        "science",
        ("cancer",),
        """
# Bowel cancer home test to be posted to everyone from the age of fifty
> The simple kit needs one small sample and detects traces of blood too small to see.
The bowel cancer screening kit that arrives by post will now be sent to people from their fiftieth birthday, rather than at fifty-four, bringing thousands more into the programme each year.
The test looks for hidden blood in a sample collected at home with a small stick and posted back in a sealed envelope. Most results are normal; those who test positive are offered a camera examination of the bowel.
Bowel cancer is one of the most common cancers, and survival is far higher when it is found early. Experts say many people put the kit in a drawer because they find the idea unpleasant.
"It takes a couple of minutes in your own bathroom," a screening nurse said. "Please do not leave it on the shelf."
""",
    ),
    (
        "cold-damp-homes-children-asthma-admissions",
        "pulse",
        "living",
        ("asthma", "child-health"),
        """
# Children in cold, damp homes twice as likely to be admitted with asthma
> Doctors call for mould to be treated as a health problem, not only a housing repair.
Children living in homes with visible damp and mould were twice as likely to need hospital treatment for asthma as those in dry homes, an analysis of emergency admissions in three cities has found.
Mould releases spores and irritants that inflame the airways, and cold rooms make condensation worse. The risk was greatest in the winter months and in flats where families could not afford to heat every room.
Paediatricians want landlords to be told to act quickly when a child's doctor reports mould, and for families to get help with heating costs.
## What to do now
- Open windows briefly after cooking and showers
- Dry washing outside or in a ventilated room
- Wipe away mould with a damp cloth, wearing gloves
- Tell your landlord in writing and keep a copy
""",
    ),
)
