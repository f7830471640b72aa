# ruff: noqa: E501  -- prose data file: one paragraph per source line reads better than wrapped text
"""The Wellbeing Times articles of the demo pool, in publication order (the line markup: :mod:`demo.articles`)."""

#: (slug, site, section, topics, text) of each article
PIECES: tuple[tuple[str, str, str, tuple[str, ...], str], ...] = (
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
    (
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
    ),
)
