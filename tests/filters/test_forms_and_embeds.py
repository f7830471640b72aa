"""Forms and their thank-you text are never the article; embedded posts stay as one line (filters.embeds)."""

from __future__ import annotations

from filters import extract
from filters.embeds import EMBED_NOTE, EMBED_REFERENCE_NOTE

from .article_page import ARTICLE, assert_article_kept, page


def reasons_of(ex, fragment: str) -> list[str]:
    return [p.reason() for p in ex.phrases if fragment in p.text]


# a tip form as news sites put it under every story: a long invitation, the form, its fine print and the
# thank-you text shown once it is sent (the New York Post's "Thanks for contacting us")
TIP_FORM = """
<div class="tip-form"><h3>Have a story tip?</h3>
<p>We want to hear from you if you have witnessed news happening in your community, if you have photographs or
video of breaking news, or if you know of something our reporters should be looking into right now.</p>
<p>Our newsroom reads every submission, and we will contact you before publishing anything you send, so please
leave an email address or a telephone number where one of our editors can reach you during the day.</p>
<form action="/tips" method="post"><label>Your name <input name="name"></label>
<label>Your email <input name="email" type="email"></label><textarea name="tip"></textarea>
<p>By submitting your tip, you agree to our Terms of Use and acknowledge our Privacy Notice.</p>
<button>Send</button></form>
<div class="success"><p>Thanks for contacting us. We've received your submission.</p></div></div>
"""


def test_a_tip_form_is_not_chosen_over_a_short_story():
    ex = extract(page(f"<div class='story'>{ARTICLE}</div>{TIP_FORM}"))
    assert_article_kept(ex)
    assert "witnessed news" not in ex.text
    assert "Thanks for contacting us" not in ex.text


def test_a_form_inside_the_article_goes_with_its_reason():
    form = """<form action="/newsletter"><p>Get the health bulletin every week: the week's outbreaks, clinics and
    advice from our reporters, in one short email.</p><input name="email"><button>Sign me up</button></form>"""
    ex = extract(page(f"<article>{ARTICLE}{form}</article>"))
    assert_article_kept(ex)
    assert reasons_of(ex, "health bulletin every week") == ["removed by content: form"]


def test_a_thank_you_line_inside_the_article_is_a_form_message():
    ex = extract(page(f"<article>{ARTICLE}<p>Thank you for signing up! Check your inbox to confirm.</p></article>"))
    assert_article_kept(ex)
    assert reasons_of(ex, "Thank you for signing up") == ["removed by content: form message"]


def test_a_sentence_that_thanks_is_article_text():
    line = "<p>Thanks to the volunteers, the clinics will also open on Sunday mornings in the three towns.</p>"
    ex = extract(page(f"<article>{ARTICLE}{line}</article>"))
    assert "Thanks to the volunteers" in ex.text


def test_a_page_inside_one_big_form_keeps_its_article():
    # ASP.NET pages put the whole page inside one <form>
    ex = extract(page(f'<form id="aspnetForm" action="/default.aspx"><div class="story">{ARTICLE}</div></form>'))
    assert_article_kept(ex)


TWEET = """<blockquote class="twitter-tweet"><p lang="en">Forty new cases this week in the north. Please check
your children's vaccination records. <a href="https://t.co/x">https://t.co/x</a></p>&mdash; Regional Health
(@RegionHealth) <a href="https://twitter.com/RegionHealth/status/1">March 3, 2025</a></blockquote>"""
INSTAGRAM = """<blockquote class="instagram-media" data-instgrm-permalink="https://www.instagram.com/p/x/">
<div><a href="https://www.instagram.com/p/x/"><div>View this post on Instagram</div></a>
<p><a href="https://www.instagram.com/p/x/">A post shared by Regional Health (@regionhealth)</a></p></div>
</blockquote>"""


def test_an_embedded_tweet_is_one_reference_line():
    ex = extract(page(f"<article>{ARTICLE}{TWEET}</article>"))
    assert_article_kept(ex)
    assert reasons_of(ex, "(@RegionHealth)") == [f"core ({EMBED_REFERENCE_NOTE})"]
    assert reasons_of(ex, "Please check your children") == [f"removed by content: {EMBED_NOTE}"]


def test_an_embedded_post_in_a_share_named_wrapper_is_not_share_buttons():
    ex = extract(page(f"<article>{ARTICLE}<div class='social-embed'>{INSTAGRAM}</div></article>"))
    assert_article_kept(ex)
    assert "A post shared by Regional Health (@regionhealth)" in ex.text
    assert reasons_of(ex, "View this post on Instagram") == [f"removed by content: {EMBED_NOTE}"]


def test_an_embedded_post_outside_the_main_content_goes_with_it():
    ex = extract(page(f"<article>{ARTICLE}</article><aside class='sidebar'>{TWEET}</aside>"))
    assert "(@RegionHealth)" not in ex.text


# an accordion FAQ at the end of an article: each question a <button>, its answer in the panel under it
# (filters.faq); the last button asks nothing and the "Share" button is chrome
FAQ = """
<div class="faq"><h2>Frequently asked questions</h2>
<div class="accordion-item"><button aria-expanded="true">Do children need an appointment for the vaccine?</button>
<div class="accordion-panel"><p>No appointment is needed for children under twelve at the Saturday clinics, which
open at nine and close at noon until the end of the month.</p></div></div>
<div class="accordion-item"><button aria-expanded="false">Where did the outbreak begin?</button>
<div class="accordion-panel"><p>The outbreak began in a primary school in March and then spread to three of the
neighbouring towns, the regional health authority said.</p></div></div>
<button>Click to see the list of all the clinics in the region</button>
<div><p>The clinics are in the town halls of the four towns, and each of them opens on Saturday mornings.</p></div>
</div>
<button class="share-button">Share this article with a friend today</button>
"""


def test_the_questions_of_a_faq_stay_with_their_answers():
    ex = extract(page(f"<article>{ARTICLE}{FAQ}</article>"))
    assert_article_kept(ex)
    kept = ex.text
    assert "Do children need an appointment for the vaccine?" in kept
    assert "Where did the outbreak begin?" in kept
    assert "No appointment is needed for children under twelve" in kept
    assert "Click to see the list" not in kept  # a button that asks nothing stays chrome
    assert "Share this article" not in kept


def test_a_question_without_its_answer_on_the_page_stays_removed():
    # the answers a script loads on a click: the questions alone are buttons, not the article's text
    questions = "".join(f"<button>{q}</button>" for q in ("What are the big three clouds?", "Is it better to wait?"))
    ex = extract(page(f"<article>{ARTICLE}<div class='faq'>{questions}</div></article>"))
    assert_article_kept(ex)
    assert "big three clouds" not in ex.text
    assert "better to wait" not in ex.text
