"""Folder management in the workspace (issue 16 item 5): create, rename, move, merge and delete a folder
from its page; rules that conclude it retargeted or the action refused with the reason; audited."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from alerts.models import Subscription
from classifier import kb, services
from classifier.models import AuditEntry, Classification, Folder, Rule
from feeds.models import FeedToken
from monitor.models import Article
from search.models import SavedSearch

from .conftest import assert_suggestions_match_inference

ACCEPTED, REJECTED, SUGGESTED = (Classification.State.ACCEPTED, Classification.State.REJECTED, "suggested")


def rows(case) -> dict[str, str]:
    """folder path -> state of the case's classifications."""
    return dict(Classification.objects.filter(case=case).values_list("folder__path", "state"))


def review_state(case) -> str:
    return Article.objects.get(pk=case.article_id).review_state


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@pytest.fixture
def kb_tree(expert_user, make_case):
    """Sugar (with Sugar/Type1/Kids) and Health/Diabetes, a rule for each, and cases in both."""
    sugar = services.create_folder("Sugar", expert_user)
    kids = services.create_folder("Sugar/Type1/Kids", expert_user)
    diabetes = services.create_folder("Health/Diabetes", expert_user)
    stone = make_case("insulin")
    [to_sugar] = services.commit_rule(stone, "new", expert_user, folder=sugar, conditions=["insulin"])
    [to_diabetes] = services.commit_rule(
        make_case("glucose"), "new", expert_user, folder=diabetes, conditions=["glucose"]
    )
    both = make_case("insulin glucose")  # suggested in both folders
    accepted_there = make_case("insulin glucose diet")
    services.accept(accepted_there, expert_user, [diabetes])  # Sugar suggested, Diabetes accepted
    rejected_here = make_case("insulin glucose sport")
    services.reject(rejected_here, sugar, expert_user)  # Sugar rejected, Diabetes suggested
    split = make_case("insulin glucose pump")
    services.accept(split, expert_user, [sugar])
    services.reject(split, diabetes, expert_user)  # Sugar accepted, Diabetes rejected
    return {
        "sugar": sugar,
        "kids": kids,
        "type1": Folder.objects.get(path="Sugar/Type1"),
        "diabetes": diabetes,
        "health": Folder.objects.get(path="Health"),
        "to_sugar": to_sugar,
        "to_diabetes": to_diabetes,
        "stone": stone,
        "both": both,
        "accepted_there": accepted_there,
        "rejected_here": rejected_here,
        "split": split,
    }


# --------------------------------------------------------------------------- rename and move
def test_rename_from_the_folder_page_repaths_the_subtree_and_keeps_rules(ec, kb_tree):
    version = kb.version()
    response = ec.post(
        reverse("classifier:folder_rename", args=[kb_tree["sugar"].pk]), {"name": "Blood sugar"}, follow=True
    )
    assert "Renamed: the folder is now Blood sugar" in " ".join(messages_of(response))
    assert sorted(Folder.objects.filter(path__startswith="Blood sugar").values_list("path", flat=True)) == [
        "Blood sugar",
        "Blood sugar/Type1",
        "Blood sugar/Type1/Kids",
    ]
    assert Rule.objects.get(pk=kb_tree["to_sugar"].pk).folder_id == kb_tree["sugar"].pk
    assert AuditEntry.objects.filter(action="folder.rename", details__path="Blood sugar").exists()
    assert kb.version() == version  # no conclusion changed: same folder ids
    assert_suggestions_match_inference()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Health", "already exists in the top level"),
        ("A/B", "must not contain"),
        ("  ", "New name: This field is required."),
    ],
)
def test_rename_refusals_say_why(ec, kb_tree, name, message):
    response = ec.post(reverse("classifier:folder_rename", args=[kb_tree["sugar"].pk]), {"name": name}, follow=True)
    assert message in " ".join(messages_of(response))
    assert Folder.objects.get(pk=kb_tree["sugar"].pk).path == "Sugar"


def test_move_repaths_the_subtree_and_refuses_its_own_subtree(ec, kb_tree):
    url = reverse("classifier:folder_move", args=[kb_tree["sugar"].pk])
    response = ec.post(url, {"parent": kb_tree["health"].pk}, follow=True)
    assert "Moved: the folder is now Health/Sugar" in " ".join(messages_of(response))
    assert Folder.objects.get(pk=kb_tree["kids"].pk).path == "Health/Sugar/Type1/Kids"
    # its own subfolder is not offered, and posted anyway it is refused
    response = ec.get(reverse("classifier:folder", args=[kb_tree["sugar"].pk]))
    choices = dict(response.context["move_form"].fields["parent"].choices)
    assert kb_tree["type1"].pk not in choices and kb_tree["health"].pk in choices
    response = ec.post(url, {"parent": kb_tree["type1"].pk}, follow=True)
    assert "Select a valid choice" in " ".join(messages_of(response))
    # back to the top level
    ec.post(url, {"parent": ""})
    assert Folder.objects.get(pk=kb_tree["kids"].pk).path == "Sugar/Type1/Kids"
    assert AuditEntry.objects.filter(action="folder.move").count() == 2


def test_move_into_a_name_clash_is_refused(ec, kb_tree, expert_user):
    clash = services.create_folder("Health/Sugar", expert_user)
    response = ec.post(
        reverse("classifier:folder_move", args=[kb_tree["sugar"].pk]), {"parent": kb_tree["health"].pk}, follow=True
    )
    assert "a folder named 'Sugar' already exists in Health" in " ".join(messages_of(response))
    assert Folder.objects.get(pk=kb_tree["sugar"].pk).path == "Sugar" and clash.path == "Health/Sugar"


def test_create_a_subfolder_from_the_folder_page(ec, kb_tree):
    ec.post(reverse("classifier:folder_create"), {"path": "Health/Diabetes/Type 2", "public": "on"})
    assert Folder.objects.get(path="Health/Diabetes/Type 2").parent_id == kb_tree["diabetes"].pk
    assert AuditEntry.objects.filter(action="folder.create", details__path="Health/Diabetes/Type 2").exists()


# --------------------------------------------------------------------------- merge
def test_merge_retargets_rules_and_merges_classifications(ec, kb_tree, expert_user, django_user_model):
    sugar, diabetes = kb_tree["sugar"], kb_tree["diabetes"]
    other = django_user_model.objects.create_user("bea")
    search = SavedSearch.objects.create(owner=expert_user, name="sugar news", query="insulin", folder=sugar)
    moved_sub = Subscription.objects.create(user=other, folder=sugar)
    Subscription.objects.create(user=expert_user, folder=sugar)
    kept_sub = Subscription.objects.create(user=expert_user, folder=diabetes)
    FeedToken.issue(sugar, "a reader", expert_user)
    version = kb.version()

    response = ec.post(
        reverse("classifier:folder_merge", args=[sugar.pk]), {"target": diabetes.pk, "confirm": "on"}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("classifier:folder", args=[diabetes.pk])
    assert "Merged Sugar into Health/Diabetes: 1 rule retargeted" in " ".join(messages_of(response))
    assert not Folder.objects.filter(pk=sugar.pk).exists()
    # the rule keeps its id and now concludes the target; inference gives the target
    assert Rule.objects.get(pk=kb_tree["to_sugar"].pk).folder_id == diabetes.pk
    assert [c.folder for c in services.infer(kb_tree["stone"])] == [diabetes.pk]
    assert kb.version() == version + 1
    # classifications: one row per case; accepted beats rejected beats suggested
    assert rows(kb_tree["stone"]) == {"Health/Diabetes": ACCEPTED}
    assert rows(kb_tree["both"]) == {"Health/Diabetes": SUGGESTED}
    assert rows(kb_tree["accepted_there"]) == {"Health/Diabetes": ACCEPTED}
    assert rows(kb_tree["rejected_here"]) == {"Health/Diabetes": REJECTED}
    assert rows(kb_tree["split"]) == {"Health/Diabetes": ACCEPTED}
    assert review_state(kb_tree["accepted_there"]) == "reviewed"  # its pending suggestion went with Sugar
    assert review_state(kb_tree["both"]) == "suggested"
    assert_suggestions_match_inference()
    # the subtree moved under the target
    assert Folder.objects.get(pk=kb_tree["kids"].pk).path == "Health/Diabetes/Type1/Kids"
    # saved searches and subscriptions follow; a second subscription of the same user and the token do not
    search.refresh_from_db()
    assert search.folder_id == diabetes.pk
    assert Subscription.objects.get(pk=moved_sub.pk).folder_id == diabetes.pk
    assert sorted(Subscription.objects.values_list("pk", flat=True)) == sorted([moved_sub.pk, kept_sub.pk])
    assert not FeedToken.objects.exists()
    [entry] = AuditEntry.objects.filter(action="folder.merge")
    assert entry.actor == expert_user
    assert entry.details["rules"] == [kb_tree["to_sugar"].pk]
    assert entry.details["dropped_count"] == 4 and entry.details["classifications"] == 3  # the others were duplicates
    assert entry.details["subfolders"] == ["Health/Diabetes/Type1"]
    assert entry.details["feed_tokens_dropped"] == 1 and entry.details["subscriptions_dropped"] == 1
    assert entry.details["version"] == kb.version()


def test_merge_into_a_private_folder_makes_the_moved_subfolders_private(kb_tree, expert_user):
    services.set_folder_public(kb_tree["diabetes"], False, expert_user)
    services.merge_folder(kb_tree["sugar"], kb_tree["diabetes"], expert_user)
    assert set(Folder.objects.filter(path__startswith="Health/Diabetes/").values_list("public", flat=True)) == {False}


def test_merge_into_the_parent_folder(kb_tree, expert_user):
    services.merge_folder(kb_tree["type1"], kb_tree["sugar"], expert_user)
    assert Folder.objects.get(pk=kb_tree["kids"].pk).path == "Sugar/Kids"
    assert not Folder.objects.filter(path="Sugar/Type1").exists()


def test_merge_refusals_say_why(ec, kb_tree, expert_user, make_case):
    sugar, diabetes = kb_tree["sugar"], kb_tree["diabetes"]
    url = reverse("classifier:folder_merge", args=[sugar.pk])

    def refused(target, **extra) -> str:
        response = ec.post(url, {"target": target, "confirm": "on", **extra}, follow=True)
        assert Folder.objects.filter(pk=sugar.pk).exists()
        return " ".join(messages_of(response))

    assert "Tick the box" in " ".join(messages_of(ec.post(url, {"target": diabetes.pk}, follow=True)))
    assert "Choose the folder" in refused("")
    assert "Choose the folder" in refused(kb_tree["kids"].pk)  # its own subtree is not a choice
    with pytest.raises(ValidationError, match="into its own subfolder"):
        services.merge_folder(sugar, kb_tree["kids"], expert_user)
    with pytest.raises(ValidationError, match="into itself"):
        services.merge_folder(sugar, sugar, expert_user)
    services.create_folder("Health/Diabetes/Type1", expert_user)
    assert "both have a subfolder named 'Type1'" in refused(diabetes.pk)
    Folder.objects.filter(path="Health/Diabetes/Type1").delete()
    # a refinement from one folder to the other would conclude its parent's own folder
    [refining] = services.commit_rule(
        make_case("insulin pump"), "refine", expert_user, folder=diabetes, wrong_folder=sugar, conditions=["pump"]
    )
    text = refused(diabetes.pk)
    assert f"rule {refining.pk} refines rule {kb_tree['to_sugar'].pk}" in text
    assert "conclude its parent's own folder" in text
    assert Rule.objects.get(pk=kb_tree["to_sugar"].pk).folder_id == sugar.pk
    assert not AuditEntry.objects.filter(action="folder.merge").exists()


# --------------------------------------------------------------------------- delete
def test_delete_is_refused_while_subfolders_or_rules_remain(ec, kb_tree):
    sugar = kb_tree["sugar"]
    page = ec.get(reverse("classifier:folder_delete", args=[sugar.pk]))
    assert b"cannot be deleted while it has subfolders (Type1) and while rules conclude it" in page.content
    response = ec.post(reverse("classifier:folder_delete", args=[sugar.pk]), follow=True)
    assert "Sugar has subfolders (Type1)" in " ".join(messages_of(response))
    services.discard_folder(kb_tree["kids"], None)
    services.discard_folder(kb_tree["type1"], None)
    with pytest.raises(ValidationError, match=f"rule {kb_tree['to_sugar'].pk} concludes Sugar: merge it"):
        services.discard_folder(sugar, None)
    assert Folder.objects.filter(pk=sugar.pk).exists()


def test_delete_removes_the_folder_and_its_classifications(ec, kb_tree, expert_user, make_case):
    hand = services.create_folder("Hand picked", expert_user)
    case = make_case("garden flowers")
    # an accepted row no rule gives (as an imported knowledge base or the admin leaves them)
    Classification.objects.create(case=case, folder=hand, state=ACCEPTED, decided_by=expert_user)
    services.refresh_review_states([case.pk])
    assert review_state(case) == "reviewed"
    SavedSearch.objects.create(owner=expert_user, name="picked", query="flowers", folder=hand)
    Subscription.objects.create(user=expert_user, folder=hand)
    version = kb.version()
    page = ec.get(reverse("classifier:folder_delete", args=[hand.pk]))
    assert b"1 classification " in page.content and b"1 saved search " in page.content
    assert b"1 subscription " in page.content and b"0 feed tokens" in page.content
    response = ec.post(reverse("classifier:folder_delete", args=[hand.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("classifier:folders")
    assert "Deleted folder Hand picked." in " ".join(messages_of(response))
    assert not Folder.objects.filter(pk=hand.pk).exists()
    assert rows(case) == {}
    assert review_state(case) == "unreviewed"
    assert not SavedSearch.objects.exists() and not Subscription.objects.exists()
    [entry] = AuditEntry.objects.filter(action="folder.delete")
    assert entry.details == {
        "folder": hand.pk,
        "path": "Hand picked",
        "classifications": 1,
        "feed_tokens": 0,
        "saved_searches": 1,
        "subscriptions": 1,
    }
    assert kb.version() == version
    assert_suggestions_match_inference()


# --------------------------------------------------------------------------- pages, feeds, tokens
def test_folder_page_shows_feed_links_and_the_actions_escaped(ec, expert_user):
    public = services.create_folder("<b>Open</b>", expert_user)
    private = services.create_folder("Closed", expert_user, public=False)
    page = ec.get(reverse("classifier:folder", args=[public.pk])).content.decode()
    assert f'href="/feeds/{public.pk}-' in page and "/rss/" in page and "/atom/" in page
    assert "&lt;b&gt;Open&lt;/b&gt;" in page and "<b>Open</b>" not in page
    for form in ("folder-rename", "folder-move", "folder-merge", "folder-subfolder"):
        assert f'id="{form}"' in page
    assert page.count("csrfmiddlewaretoken") >= 5
    page = ec.get(reverse("classifier:folder", args=[private.pk])).content.decode()
    assert f'href="/feeds/{private.pk}-' not in page
    assert f"{reverse('feeds:tokens')}?folder={private.pk}" in page
    folders = ec.get(reverse("classifier:folders")).content.decode()
    assert 'Closed</a>\n      <span class="badge">private</span>' in folders


def test_token_form_never_defaults_to_a_public_folder(ec, expert_user):
    services.create_folder("Alpha", expert_user)
    page = ec.get(reverse("feeds:tokens")).content.decode()
    assert '<option value="" selected>(choose a folder)</option>' in page
    services.create_folder("Zeta", expert_user, public=False)
    second = services.create_folder("Omega", expert_user, public=False)
    page = ec.get(reverse("feeds:tokens")).content.decode()
    assert f'<option value="{second.pk}" selected>Omega (private)</option>' in page  # first private by path
    alpha = Folder.objects.get(path="Alpha")
    page = ec.get(reverse("feeds:tokens") + f"?folder={alpha.pk}").content.decode()
    assert f'<option value="{alpha.pk}" selected>Alpha</option>' in page  # asked for by a folder page link


# --------------------------------------------------------------------------- permissions and CSRF
ACTIONS = [
    ("folder_rename", {"name": "X"}),
    ("folder_move", {"parent": ""}),
    ("folder_merge", {"target": "", "confirm": "on"}),
    ("folder_delete", {}),
]


@pytest.mark.parametrize(("name", "data"), ACTIONS)
def test_actions_are_for_experts_only(client, django_user_model, expert_user, name, data):
    folder = services.create_folder("Kept", expert_user)
    url = reverse(f"classifier:{name}", args=[folder.pk])
    response = client.post(url, data)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(django_user_model.objects.create_user("reader"))
    assert client.post(url, data).status_code == 403
    assert Folder.objects.get(pk=folder.pk).path == "Kept"


@pytest.mark.parametrize(("name", "data"), ACTIONS)
def test_actions_need_the_csrf_token(expert_user, name, data):
    folder = services.create_folder("Kept", expert_user)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(expert_user)
    assert strict.post(reverse(f"classifier:{name}", args=[folder.pk]), data).status_code == 403
    assert Folder.objects.filter(pk=folder.pk, path="Kept").exists()


def test_actions_answer_get_with_405_but_delete_shows_its_confirm_step(ec, expert_user):
    folder = services.create_folder("Kept", expert_user)
    for name in ("folder_rename", "folder_move", "folder_merge"):
        assert ec.get(reverse(f"classifier:{name}", args=[folder.pk])).status_code == 405
    assert ec.get(reverse("classifier:folder_delete", args=[folder.pk])).status_code == 200
    assert Folder.objects.filter(pk=folder.pk).exists()


def test_a_folder_differs_by_more_than_the_case_of_its_name(ec, kb_tree, expert_user):
    """A live trial: "health/diabetes" was created beside Health/Diabetes."""
    assert services.create_folder("health/DIABETES", expert_user) == kb_tree["diabetes"]
    assert not Folder.objects.filter(path="health/DIABETES").exists()
    response = ec.post(reverse("classifier:folder_rename", args=[kb_tree["sugar"].pk]), {"name": "HEALTH"}, follow=True)
    assert "already exists in the top level" in " ".join(messages_of(response))
    # the folder's own name in another case is a rename of it, not a clash
    services.rename_folder(kb_tree["sugar"], "SUGAR", expert_user)
    assert Folder.objects.get(pk=kb_tree["sugar"].pk).path == "SUGAR"
