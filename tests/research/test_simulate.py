"""Simulated expert and manifest builders, on small hand-made datasets (no shared data needed)."""

import gzip
import json
import random
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("sklearn")

from classifier.kinds import RuleKind  # noqa: E402
from research import datasets, experiment, simulate  # noqa: E402
from research.covering import CoveringRule, learn_covering_rules  # noqa: E402
from research.experts import EXPERTS, RuleTraceExpert, SimulatedExpert  # noqa: E402
from research.knowledge import KNOWLEDGE_SOURCES, Knowledge, TraceKnowledge, TraceSettings  # noqa: E402

TOPIC_WORDS = {
    "sport": ["football", "goal", "match", "league", "coach", "striker", "stadium", "season"],
    "business": ["shares", "profit", "market", "bank", "investors", "economy", "prices", "company"],
    "tech": ["software", "computer", "internet", "phone", "users", "digital", "network", "chip"],
}
FILLER = ["people", "week", "time", "year", "report", "news", "city", "group", "plan", "way"]


def write_corpus(folder, n_per_label=30, seed=0, with_split=False, html_every=0):
    rng = random.Random(seed)
    (folder / "docs").mkdir(parents=True)
    rows = ["path,labels,site" + (",split" if with_split else "")]
    n = 0
    for label, words in TOPIC_WORDS.items():
        for _ in range(n_per_label):
            labels = [label]
            text_words = rng.sample(words, 4) + rng.sample(FILLER, 5)
            if rng.random() < 0.15:  # a few multi-topic documents
                other = rng.choice([x for x in TOPIC_WORDS if x != label])
                labels.append(other)
                text_words += rng.sample(TOPIC_WORDS[other], 4)
            text = " ".join(text_words)
            n += 1
            if html_every and n % html_every == 0:
                name = f"docs/{n}.html.gz"
                page = f"<html><body><nav><a href='/'>Home</a></nav><p>{text} and more.</p></body></html>"
                (folder / name).write_bytes(gzip.compress(page.encode()))
            else:
                name = f"docs/{n}.txt"
                (folder / name).write_text(text)
            row = f"{name},{';'.join(labels)},demo"
            if with_split:
                row += ",test" if n % 3 == 0 else ",train"
            rows.append(row)
    (folder / "manifest.csv").write_text("\n".join(rows) + "\n")


def test_load_manifest_makes_a_seeded_split(tmp_path):
    write_corpus(tmp_path)
    a = datasets.load_manifest(tmp_path, seed=1)
    b = datasets.load_manifest(tmp_path, seed=1)
    c = datasets.load_manifest(tmp_path, seed=2)
    assert [i.split for i in a] == [i.split for i in b] != [i.split for i in c]
    assert sum(i.split == "test" for i in a) == round(0.3 * len(a))
    assert a[0].tokens and all(t == t.lower() for t in a[0].tokens)


def test_load_manifest_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        datasets.load_manifest(tmp_path)
    (tmp_path / "manifest.csv").write_text("path,labels\nx.txt,\n")
    with pytest.raises(ValueError, match="no label"):
        datasets.load_manifest(tmp_path)
    (tmp_path / "manifest.csv").write_text("path\nx.txt\n")
    with pytest.raises(ValueError, match="missing column"):
        datasets.load_manifest(tmp_path)
    (tmp_path / "x.pdf").write_text("x")
    (tmp_path / "manifest.csv").write_text("path,labels\nx.pdf,a\n")
    with pytest.raises(ValueError, match="unsupported file type"):
        datasets.load_manifest(tmp_path)


def test_html_files_go_through_the_filters(tmp_path):
    pytest.importorskip("filters")
    write_corpus(tmp_path, n_per_label=4, html_every=2)
    items = datasets.load_manifest(tmp_path)
    html_items = [i for i in items if i.path.name.endswith(".html.gz")]
    assert html_items
    for item in html_items:
        assert "home" not in item.tokens  # the navigation link is noise
        assert any(w in item.tokens for words in TOPIC_WORDS.values() for w in words)


def knowledge():
    weights = {label: {w: 1.0 - i * 0.1 for i, w in enumerate(words)} for label, words in TOPIC_WORDS.items()}
    for label, table in weights.items():
        for other, words in TOPIC_WORDS.items():
            if other != label:
                table.update({w: -0.5 for w in words})
    ranked = {label: list(words) for label, words in TOPIC_WORDS.items()}
    return Knowledge(weights, ranked)


FOLDERS = {"sport": 1, "business": 2, "tech": 3}


def test_expert_makes_a_new_rule_with_k_best_terms_of_the_case():
    expert = SimulatedExpert(knowledge(), FOLDERS, k=2)
    case = frozenset({"goal", "coach", "week", "stadium"})
    assert expert.learn(1, case, ["sport"]) == 1
    (rule,) = list(expert.tree)
    # best-weighted sport words present: goal (0.9), coach (0.6), stadium (0.4)
    assert rule.kind == RuleKind.NEW and rule.folder == 1
    assert rule.conditions == {"goal", "coach"}
    assert expert.cornerstones[1] == case
    assert expert.learn(2, frozenset({"goal", "coach", "city"}), ["sport"]) == 0
    assert expert.stats.accepted == 1 and expert.stats.cases_seen == 2


def test_expert_refines_a_wrong_folder_without_breaking_the_cornerstone():
    expert = SimulatedExpert(knowledge(), FOLDERS, k=1)
    expert.learn(1, frozenset({"football", "match"}), ["sport"])  # rule: football -> sport
    # a business case that mentions football: the expert moves it to business
    case = frozenset({"football", "shares", "company"})
    assert expert.tree.folders(case) == {1}
    expert.learn(2, case, ["business"])
    rules = list(expert.tree)
    assert [r.kind for r in rules] == [RuleKind.NEW, RuleKind.REFINE]
    assert rules[1].parent_id == rules[0].id and rules[1].folder == 2
    assert expert.tree.folders(case) == {2}
    assert expert.tree.folders(expert.cornerstones[1]) == {1}


def test_expert_stops_a_wrong_folder_when_nothing_is_missing():
    expert = SimulatedExpert(knowledge(), FOLDERS, k=1)
    expert.learn(1, frozenset({"football", "match"}), ["sport"])
    expert.learn(2, frozenset({"software", "users"}), ["tech"])
    case = frozenset({"football", "software", "network"})  # tech only, but football fires sport
    assert expert.tree.folders(case) == {1, 3}
    expert.learn(3, case, ["tech"])
    assert expert.tree.folders(case) == {3}
    assert [r.kind for r in expert.tree][-1] == RuleKind.STOP
    # cornerstones keep their folders
    assert expert.tree.folders(expert.cornerstones[1]) == {1}
    assert expert.tree.folders(expert.cornerstones[2]) == {3}


def test_expert_adds_terms_from_the_difference_list_to_spare_a_cornerstone():
    expert = SimulatedExpert(knowledge(), FOLDERS, k=1)
    expert.learn(1, frozenset({"football", "match", "goal"}), ["sport"])  # football -> sport
    # a cornerstone of sport holding "shares": a refinement on "shares" alone would move it
    expert.learn(2, frozenset({"striker", "shares"}), ["sport"])  # striker -> sport (new rule)
    case = frozenset({"football", "shares", "striker", "profit"})
    assert expert.tree.folders(case) == {1}
    expert.learn(3, case, ["business"])
    assert expert.tree.folders(case) == {2}
    for cid in (1, 2):
        assert expert.tree.folders(expert.cornerstones[cid]) == {1}
    assert expert.stats.shown >= 1


def test_expert_parameters_are_checked():
    with pytest.raises(ValueError):
        SimulatedExpert(knowledge(), FOLDERS, k=0)
    with pytest.raises(ValueError):
        SimulatedExpert(knowledge(), FOLDERS, noise=2)


def test_run_learns_and_reports_baselines(tmp_path):
    write_corpus(tmp_path, n_per_label=40)
    items = datasets.load_manifest(tmp_path, seed=0)
    expert, curve = experiment.run(items, k=2, checkpoints=[10, 40])
    assert [c.cases_seen for c in curve] == [10, 40]
    assert curve[-1].rules >= curve[0].rules > 0
    assert curve[-1].micro_f1 > 0.8  # the topics are separable by their words
    assert set(curve[-1].baselines) == {"naive_bayes", "linear_svm"}
    assert curve[-1].baselines["linear_svm"]["micro_f1"] > 0.8
    # every cornerstone keeps its gold folders: the expert never breaks one
    names = {v: k for k, v in FOLDERS.items()}
    for cid, case in expert.cornerstones.items():
        gold = next(i.labels for i in items if i.id == cid)
        got = {expert.labels[f] for f in expert.tree.folders(case)}
        assert got == set(gold) or expert.stats.unresolved, (cid, got, gold, names)


def test_cli_writes_the_documented_json(tmp_path, capsys):
    data = tmp_path / "data"
    write_corpus(data, n_per_label=20, with_split=True)
    out = tmp_path / "out.json"
    code = simulate.main(["--dataset", str(data), "--k", "2", "--checkpoints", "5,30", "--json", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "cases seen" in printed and "accepted as is" in printed
    figures = json.loads(out.read_text())
    assert {"cases_seen", "rules", "micro_f1", "macro_f1", "baselines"} <= set(figures)
    assert figures["cases_seen"] == 30
    for name in ("naive_bayes", "linear_svm"):
        assert set(figures["baselines"][name]) == {"micro_f1", "macro_f1"}
    assert simulate.main(["--dataset", str(tmp_path / "missing")]) == 2


# ---------------------------------------------------------------------------- manifest builders
REUTERS_SGM = """<!DOCTYPE lewis SYSTEM "lewis.dtd">
<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" OLDID="1" NEWID="1">
<TOPICS><D>grain</D><D>wheat</D></TOPICS>
<TEXT>&#2;
<TITLE>WHEAT &amp; GRAIN</TITLE>
<BODY>Wheat exports rose.
&#3;</BODY></TEXT>
</REUTERS>
<REUTERS TOPICS="NO" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" OLDID="2" NEWID="2">
<TOPICS></TOPICS><TEXT><BODY>no topics</BODY></TEXT>
</REUTERS>
<REUTERS TOPICS="YES" LEWISSPLIT="TEST" CGISPLIT="PUBLISHED-TESTSET" OLDID="3" NEWID="3">
<TOPICS><D>earn</D></TOPICS><TEXT><TITLE>PROFIT UP</TITLE><BODY>Net profit rose.</BODY></TEXT>
</REUTERS>
<REUTERS TOPICS="YES" LEWISSPLIT="NOT-USED" CGISPLIT="TRAINING-SET" OLDID="4" NEWID="4">
<TOPICS><D>earn</D></TOPICS><TEXT><BODY>unused</BODY></TEXT>
</REUTERS>
<REUTERS TOPICS="YES" LEWISSPLIT="TEST" CGISPLIT="PUBLISHED-TESTSET" OLDID="5" NEWID="5">
<TOPICS></TOPICS><TEXT><BODY>yes but empty</BODY></TEXT>
</REUTERS>
"""


def test_reuters_builder_keeps_modapte_documents_with_topics(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "reut2-000.sgm.gz").write_bytes(gzip.compress(REUTERS_SGM.encode("latin-1")))
    out = tmp_path / "out"
    assert datasets.build("reuters", out, src) == 2
    rows = (out / "manifest.csv").read_text().splitlines()
    assert rows == [
        "path,labels,site,split",
        "docs/00001.txt,grain;wheat,reuters,train",
        "docs/00003.txt,earn,reuters,test",
    ]
    assert (out / "docs/00001.txt").read_text() == "WHEAT & GRAIN\nWheat exports rose."
    items = datasets.load_manifest(out)
    assert items[0].labels == {"grain", "wheat"} and "wheat" in items[0].tokens


def test_bbc_builder_uses_folders_as_labels(tmp_path):
    src = tmp_path / "bbc"
    for label in ("sport", "tech"):
        (src / label).mkdir(parents=True)
        (src / label / "001.txt").write_bytes(f"Title {label}\n\nBody caf\xe9.".encode("latin-1"))
    out = tmp_path / "out"
    assert datasets.build("bbc", out, src) == 2
    assert (out / "manifest.csv").read_text().splitlines() == [
        "path,labels,site",
        "docs/sport-001.txt,sport,bbc",
        "docs/tech-001.txt,tech,bbc",
    ]
    assert "café" in (out / "docs/sport-001.txt").read_text()
    with pytest.raises(ValueError, match="unknown dataset"):
        datasets.build("imdb", out, src)
    with pytest.raises(FileNotFoundError):
        datasets.build("bbc", out, tmp_path / "nowhere")


def test_real_reuters_modapte_counts(tmp_path):
    root = datasets.datasets_root() / "reuters-21578"
    if not root.is_dir():
        pytest.skip("WIMS_DATASETS reuters-21578 absent")
    docs = list(datasets.reuters_documents(root))
    assert sum(d.split == "train" for d in docs) == 7775
    assert sum(d.split == "test" for d in docs) == 3019


# ---------------------------------------------------------------------------- the rule-trace expert
def synthetic_items(n_per_label=30, seed=0):
    """A tiny labelled set in memory: topic words plus filler, a few multi-topic items."""
    rng = random.Random(seed)
    items = []
    for label, words in TOPIC_WORDS.items():
        for _ in range(n_per_label):
            labels = {label}
            tokens = rng.sample(words, 4) + rng.sample(FILLER, 5)
            if rng.random() < 0.15:
                other = rng.choice([x for x in TOPIC_WORDS if x != label])
                labels.add(other)
                tokens += rng.sample(TOPIC_WORDS[other], 4)
            n = len(items)
            split = "test" if n % 3 == 0 else "train"
            items.append(datasets.Item(n, Path(f"{n}.txt"), frozenset(labels), split, tokens=tokens))
    return items


def test_trace_rules_take_their_words_from_the_case_path_never_an_arbitrary_word():
    items = synthetic_items()
    train = [i for i in items if i.split == "train"]
    labels = sorted(TOPIC_WORDS)
    knowledge = TraceKnowledge(train, labels, TraceSettings(max_depth=4))
    expert = RuleTraceExpert(knowledge, FOLDERS)
    for item in train:
        before = expert.tree.max_id
        expert.learn(item.id, item.case, item.labels)
        for rule in expert.tree:
            if rule.id <= before:
                continue
            case = item.case
            assert rule.conditions <= case and rule.absent.isdisjoint(case)  # the case is its cornerstone
            if rule.folder is not None:
                path = knowledge.path(expert.labels[rule.folder], case)
            else:  # a stop: the path through the wrong label's tree
                path = knowledge.path(expert.labels[expert.tree.get(rule.parent_id).folder], case)
            on_path = set(path.present) | set(path.absent)
            for word in rule.conditions | rule.absent:
                # a path word, or a word the training part says is precise for the label (fallback /
                # difference list): never an unknown, arbitrary word
                known = word in on_path or knowledge.support(word) >= knowledge.settings.min_support
                assert known, (rule, word)
    assert expert.stats.rules > 0 and expert.stats.unresolved == 0
    # the path's words are where the rules come from: most rules use no fallback word
    assert expert.stats.fallbacks < expert.stats.rules


def test_trace_new_rule_is_the_positive_tree_path():
    items = synthetic_items()
    train = [i for i in items if i.split == "train"]
    settings = TraceSettings(max_depth=3, generalize=False)
    knowledge = TraceKnowledge(train, sorted(TOPIC_WORDS), settings)
    case = frozenset({"goal", "coach", "stadium", "week", "city"})
    path = knowledge.path("sport", case)
    assert path.positive and set(path.present) <= case and not set(path.absent) & case
    expert = RuleTraceExpert(knowledge, FOLDERS)
    assert expert.learn(1000, case, ["sport"]) == 1
    (rule,) = list(expert.tree)
    assert rule.kind == RuleKind.NEW and rule.folder == FOLDERS["sport"]
    assert rule.conditions == set(path.present) and rule.absent == set(path.absent)


def training_precision(train, label, conditions, absent):
    covered = [i for i in train if conditions <= i.case and not absent & i.case]
    return sum(label in i.labels for i in covered) / len(covered), sum(label in i.labels for i in covered)


def test_trace_generalize_drops_only_the_conditions_the_label_does_not_need():
    # 'goal' means sport except in one business case that also holds 'shares'; nothing with 'goal' holds
    # 'software' or 'profit'
    docs = [({"sport"}, ["goal", "league", "week"])] * 8 + [({"sport"}, ["league", "coach", "week"])] * 4
    docs += [({"business"}, ["goal", "shares", "week"])] + [({"business"}, ["shares", "profit", "week"])] * 6
    docs += [({"tech"}, ["software", "week"])] * 6
    train = [
        datasets.Item(n, Path(f"{n}.txt"), frozenset(labels), "train", tokens=tokens)
        for n, (labels, tokens) in enumerate(docs)
    ]
    knowledge = TraceKnowledge(train, sorted(TOPIC_WORDS), TraceSettings())
    # 'shares' must stay absent (without it the rule takes in the business case); the rest is not needed
    present, absent = knowledge.generalize("sport", ["goal", "league"], ["shares", "software", "profit"])
    assert present == ["league"] and absent == []  # 'league' alone: as precise, and more sport cases
    present, absent = knowledge.generalize("sport", ["goal"], ["shares", "software", "profit"])
    assert present == ["goal"] and absent == ["shares"]
    # never below the whole path's precision, and a present word always stays
    full = training_precision(train, "sport", {"goal"}, {"shares", "software", "profit"})
    assert training_precision(train, "sport", set(present), set(absent))[0] >= full[0]
    assert knowledge.generalize("sport", ["goal"], [])[0] == ["goal"]


def test_trace_rules_are_generalised_paths_as_precise_as_the_whole_path():
    items = synthetic_items()
    train = [i for i in items if i.split == "train"]
    knowledge = TraceKnowledge(train, sorted(TOPIC_WORDS), TraceSettings(max_depth=4))
    assert knowledge.settings.generalize  # the default
    expert = RuleTraceExpert(knowledge, FOLDERS)
    checked = shorter = 0
    for item in train:
        before = expert.tree.max_id
        expert.learn(item.id, item.case, item.labels)
        for rule in expert.tree:
            if rule.id <= before or rule.folder is None:
                continue
            label = expert.labels[rule.folder]
            path = knowledge.path(label, item.case)
            if not path.positive or not rule.conditions <= set(path.present):
                continue  # a fallback word, or a difference-list word added for a cornerstone case
            assert rule.absent <= set(path.absent)
            whole = training_precision(train, label, set(path.present), set(path.absent))
            mine = training_precision(train, label, set(rule.conditions), set(rule.absent))
            assert mine[0] >= whole[0] and mine[1] >= whole[1]
            checked += 1
            shorter += len(rule.conditions) + len(rule.absent) < len(set(path.present)) + len(set(path.absent))
    assert checked > 0 and shorter > 0  # some path held a condition the label did not need


def test_trace_fallback_is_the_most_precise_word_and_none_means_unresolved():
    items = synthetic_items()
    train = [i for i in items if i.split == "train"]
    knowledge = TraceKnowledge(train, sorted(TOPIC_WORDS), TraceSettings(max_depth=3))
    # only filler words: no path, no precise word -> no rule, counted unresolved (no arbitrary word)
    expert = RuleTraceExpert(knowledge, FOLDERS)
    assert expert.learn(2000, frozenset({"people", "week", "time"}), ["sport"]) == 0
    assert len(expert.tree) == 0 and expert.stats.unresolved == 1
    # unknown words only: the same
    assert expert.learn(2001, frozenset({"zzz", "qqq"}), ["tech"]) == 0
    assert expert.stats.unresolved == 2


def test_svm_expert_never_falls_back_to_the_alphabetically_first_words():
    expert = SimulatedExpert(knowledge(), FOLDERS, k=2)
    assert expert.learn(1, frozenset({"aardvark", "abacus", "week"}), ["sport"]) == 0
    assert len(expert.tree) == 0 and expert.stats.unresolved == 1


def test_a_page_the_filters_reject_is_skipped_and_counted(tmp_path):
    pytest.importorskip("filters")
    write_corpus(tmp_path, n_per_label=10, with_split=True)
    (tmp_path / "docs" / "bad.html").write_bytes(b"\x00\x01\x02" * 400)  # binary: ExtractionError
    with open(tmp_path / "manifest.csv", "a") as handle:
        handle.write("docs/bad.html,sport,demo,train\n")
    items = datasets.load_manifest(tmp_path)
    (bad,) = [i for i in items if i.skipped]
    assert bad.path.name == "bad.html" and not bad.tokens
    expert, curve = experiment.run(items, with_baselines=False)
    assert expert.stats.skipped == 1
    assert expert.stats.cases_seen == sum(1 for i in items if i.split == "train") - 1
    out = tmp_path / "out.json"
    assert simulate.main(["--dataset", str(tmp_path), "--no-baselines", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures["skipped"] == 1 and {"micro_f1", "macro_f1"} == set(figures["expert_ceiling"])


def test_validation_split_never_holds_a_test_item():
    items = synthetic_items()
    tuned = datasets.validation_split(items, share=0.25)
    test_ids = {i.id for i in items if i.split == "test"}
    assert not test_ids & {i.id for i in tuned}
    assert sum(i.split == "test" for i in tuned) == round(0.25 * (len(items) - len(test_ids)))


def test_run_with_either_expert(tmp_path):
    items = synthetic_items(n_per_label=40)
    for name in EXPERTS:
        expert, curve = experiment.run(items, expert=name, checkpoints=[20, 80], with_baselines=False)
        assert curve[-1].micro_f1 > 0.8, name
        assert curve[-1].rules_per_case == curve[-1].rules / 80
    assert expert.ceiling == {} and isinstance(expert, SimulatedExpert)
    with pytest.raises(ValueError, match="unknown expert"):
        experiment.run(items, expert="oracle")


def pair_items():
    """'match' means sport only two times in three, 'match' with 'cup' always (training part)."""
    docs = [({"sport"}, ["goal", "league", "match", "week"] + (["cup"] if n < 5 else [])) for n in range(10)]
    docs += [({"business"}, ["shares", "match", "week"])] * 5 + [({"business"}, ["shares", "cup", "week"])] * 5
    docs += [({"tech"}, ["software", "week"])] * 10
    return [
        datasets.Item(n, Path(f"{n}.txt"), frozenset(labels), "train", tokens=tokens)
        for n, (labels, tokens) in enumerate(docs)
    ]


def test_trace_fallback_word_below_pair_precision_gets_the_partner_word_that_makes_it_reliable():
    train = pair_items()
    case = frozenset({"match", "cup", "week"})  # no 'goal' or 'league': sport's tree says no, the fallback speaks
    settings = TraceSettings(max_depth=1)
    knowledge = TraceKnowledge(train, sorted(TOPIC_WORDS), settings)
    assert not knowledge.path("sport", case).positive
    assert knowledge.precision("sport", "match") < settings.pair_below
    partner, precision = knowledge.best_partner("sport", "match", case)
    assert partner == "cup" and precision > knowledge.precision("sport", "match")
    expert = RuleTraceExpert(knowledge, FOLDERS)
    assert expert.learn(1000, case, ["sport"]) == 1
    (rule,) = list(expert.tree)
    assert rule.folder == FOLDERS["sport"] and rule.conditions == {"match", "cup"} and expert.stats.fallbacks == 1
    # with pairing off the expert states the single word, as before
    single = RuleTraceExpert(
        TraceKnowledge(train, sorted(TOPIC_WORDS), TraceSettings(max_depth=1, pair_below=None)),
        FOLDERS,
    )
    assert single.learn(1000, case, ["sport"]) == 1
    assert next(iter(single.tree)).conditions == {"match"}


def test_trace_fallback_word_stays_single_when_no_partner_is_more_precise():
    train = pair_items()
    knowledge = TraceKnowledge(train, sorted(TOPIC_WORDS), TraceSettings(max_depth=1))
    case = frozenset({"match", "week"})  # 'week' is in every training case: pairing adds nothing
    assert knowledge.best_partner("sport", "match", case)[1] <= knowledge.precision("sport", "match")
    expert = RuleTraceExpert(knowledge, FOLDERS)
    assert expert.learn(1001, case, ["sport"]) == 1
    assert next(iter(expert.tree)).conditions == {"match"}


def write_titled_corpus(folder):
    """Sport is told only by its title words ('cup', 'match') and its phrases ('final whistle'): business
    documents hold every word of a sport document too, only not in the title nor one after the other."""
    (folder / "docs").mkdir(parents=True)
    rows = ["path,labels"]
    for n in range(24):
        label = ("sport", "business")[n % 2]
        if label == "sport":
            title, body = "Cup match", "final whistle, cup match week"
        else:
            title, body = "Shares report", "match cup whistle week final shares"
        (folder / f"docs/{n}.txt").write_text(f"{title}\n\n{body}\n")
        rows.append(f"docs/{n}.txt,{label}")
    (folder / "manifest.csv").write_text("\n".join(rows) + "\n")


def test_wims_features_build_the_case_as_the_product_does(tmp_path):
    from classifier.features import FeatureSettings, case_features
    from filters.stopwords import get_stop_words

    write_titled_corpus(tmp_path)
    words = datasets.load_manifest(tmp_path, features="words")
    wims = datasets.load_manifest(tmp_path, features="wims")
    sport = wims[0]
    assert sport.labels == {"sport"} and sport.tokens == words[0].tokens
    assert sport.case == frozenset(
        case_features(sport.tokens, title="Cup match", settings=FeatureSettings(), stop_words=get_stop_words("en"))
    )
    assert {"title:match", "title:cup", "final whistle"} <= sport.case
    assert words[0].case == frozenset(words[0].tokens)
    with pytest.raises(ValueError, match="unknown features"):
        datasets.load_manifest(tmp_path, features="bigrams")


def test_with_wims_features_a_title_word_or_a_phrase_becomes_a_condition(tmp_path):
    write_titled_corpus(tmp_path)
    folders = {"business": 1, "sport": 2}
    settings = TraceSettings(max_depth=1)
    train = datasets.load_manifest(tmp_path, features="wims")
    expert = RuleTraceExpert(TraceKnowledge(train, sorted(folders), settings), folders)
    sport = train[0]
    assert expert.learn(sport.id, sport.case, sport.labels) == 1
    (rule,) = list(expert.tree)
    assert rule.folder == folders["sport"] and rule.conditions <= sport.case
    # what tells sport apart is a title word or a phrase; every plain word of the case is in business too
    assert rule.conditions and all(w.startswith("title:") or " " in w for w in rule.conditions), rule.conditions
    # as bags of words the same case offers no word that means sport: no rule, counted unresolved
    plain = datasets.load_manifest(tmp_path, features="words")
    plain_expert = RuleTraceExpert(TraceKnowledge(plain, sorted(folders), settings), folders)
    assert plain_expert.learn(plain[0].id, plain[0].case, plain[0].labels) == 0
    assert plain_expert.stats.unresolved == 1


def write_diabetes_corpus(folder):
    """Health documents say "diabetes" or "diabetics" (never both, nor in the same place); business
    documents say "shares" or "profit": only the stem "diabet" tells every health document apart."""
    (folder / "docs").mkdir(parents=True)
    rows = ["path,labels"]
    for n in range(24):
        label = ("health", "business")[n % 2]
        if label == "health":
            body = ("report week diabetes", "diabetics report week")[n // 2 % 2]
        else:
            body = ("shares", "profit")[n // 2 % 2] + " report week"
        (folder / f"docs/{n}.txt").write_text(f"News\n\n{body}\n")
        rows.append(f"docs/{n}.txt,{label}")
    (folder / "manifest.csv").write_text("\n".join(rows) + "\n")


def test_with_stemming_a_cases_diabetics_meets_a_rules_diabetes(tmp_path):
    from classifier.features import FeatureSettings, condition

    write_diabetes_corpus(tmp_path)
    folders = {"business": 1, "health": 2}
    train = datasets.load_manifest(tmp_path, stemming="english")
    diabetes, diabetics = train[0], train[2]
    assert diabetes.labels == diabetics.labels == {"health"}
    knowledge = TraceKnowledge(train, sorted(folders), TraceSettings(max_depth=1))
    expert = RuleTraceExpert(knowledge, folders)
    assert expert.learn(diabetes.id, diabetes.case, diabetes.labels) == 1
    (rule,) = list(expert.tree)
    # the rule is "diabetes" as a knowledge base with stemming reads the condition typed
    assert rule.conditions == {condition("diabetes", FeatureSettings(stemming="english"))}
    assert expert.tree.folders(diabetics.case) == {folders["health"]}
    # without stemming the two words stay apart
    plain = datasets.load_manifest(tmp_path)
    assert "diabetes" in plain[0].case and "diabetes" not in plain[2].case
    with pytest.raises(ValueError, match="unknown stemming"):
        datasets.load_manifest(tmp_path, stemming="klingon")
    with pytest.raises(ValueError, match="stemming applies"):
        datasets.load_manifest(tmp_path, features="words", stemming="english")


# ---------------------------------------------------------------------------- sequential covering
def covering_matrix(cases):
    from sklearn.feature_extraction.text import CountVectorizer

    vectorizer = CountVectorizer(analyzer=lambda case: sorted(case), binary=True)
    x = vectorizer.fit_transform(cases).tocsr()
    return x, [str(t) for t in vectorizer.get_feature_names_out()]


@pytest.mark.parametrize("m_estimate", [None, 22.4])  # literals by FOIL gain, or by the m-estimate
def test_covering_rules_cover_every_positive_and_no_negative_when_grown_unpruned(m_estimate):
    items = [i for i in synthetic_items() if i.split == "train"]
    x, terms = covering_matrix([i.case for i in items])
    y = [("sport" in i.labels) for i in items]
    rules = learn_covering_rules(x, y, terms, grow_share=1.0, min_support=1, m_estimate=m_estimate)
    assert rules
    for item, positive in zip(items, y, strict=True):
        covering = [r for r in rules if r.covers(item.case)]
        assert bool(covering) == positive, (item.case, item.labels, covering)
    # each rule is pure in the training part and reports it
    assert all(r.precision == 1.0 and r.positives > 0 for r in rules)
    assert all(r.present for r in rules)  # a rule always names a word that must be present


def test_covering_learns_a_must_be_absent_word_when_the_label_needs_one():
    # 'goal' means sport unless 'shares' is there too; no other word tells the two apart
    docs = [({"sport"}, {"goal", "week"})] * 8 + [({"business"}, {"goal", "shares", "week"})] * 4
    docs += [({"business"}, {"shares", "week"})] * 6
    x, terms = covering_matrix([case for _, case in docs])
    y = ["sport" in labels for labels, _ in docs]
    (rule,) = learn_covering_rules(x, y, terms, grow_share=1.0)
    assert rule.present == ("goal",) and rule.absent == ("shares",) and rule.positives == 8
    # without must-be-absent words no word makes 'goal' purer: the rule stays as general, two in three right
    plain = learn_covering_rules(x, y, terms, grow_share=1.0, absent=False)
    assert plain == [CoveringRule(("goal",), (), 8 / 12, 8)]


def test_covering_expert_states_the_first_covering_rule_and_falls_back_to_the_tree_path():
    items = synthetic_items()
    train = [i for i in items if i.split == "train"]
    settings = TraceSettings(max_depth=3, knowledge="covering", grow_share=1.0)
    knowledge = TraceKnowledge(train, sorted(TOPIC_WORDS), settings)
    assert all(knowledge.rules[label] for label in TOPIC_WORDS)
    case = frozenset({"goal", "coach", "stadium", "week", "city"})
    first = knowledge.covering_rule("sport", case)
    assert first is not None
    assert first == next(r for r in knowledge.rules["sport"] if r.covers(case))  # in learned order
    expert = RuleTraceExpert(knowledge, FOLDERS)
    assert expert.learn(1000, case, ["sport"]) == 1
    (rule,) = list(expert.tree)
    assert rule.kind == RuleKind.NEW and rule.folder == FOLDERS["sport"]
    assert rule.conditions == set(first.present) and rule.absent == set(first.absent)
    assert expert.stats.fallbacks == 0
    # a case no covering rule takes: the expert reads its tree instead, as the tree expert does
    knowledge.rules["sport"] = []
    tree_expert = RuleTraceExpert(TraceKnowledge(train, sorted(TOPIC_WORDS), TraceSettings(max_depth=3)), FOLDERS)
    other = RuleTraceExpert(knowledge, FOLDERS)
    assert other.learn(1000, case, ["sport"]) == tree_expert.learn(1000, case, ["sport"]) == 1
    assert next(iter(other.tree)).conditions == next(iter(tree_expert.tree)).conditions
    # the ceiling of a covering expert is its rule lists classifying alone
    assert knowledge.classify(case) == {label for label in TOPIC_WORDS if knowledge.covering_rule(label, case)}


def test_every_knowledge_source_learns_the_synthetic_topics():
    items = synthetic_items(n_per_label=40)
    for source in KNOWLEDGE_SOURCES:
        settings = TraceSettings(knowledge=source)
        expert, curve = experiment.run(items, checkpoints=[80], with_baselines=False, settings=settings)
        assert curve[-1].micro_f1 > 0.8, source
        assert expert.settings.knowledge == source
    with pytest.raises(ValueError, match="unknown knowledge"):
        experiment.run(items, with_baselines=False, settings=TraceSettings(knowledge="oracle"))


def test_cli_knowledge_source_option(tmp_path):
    data = tmp_path / "data"
    write_corpus(data, n_per_label=20, with_split=True)
    out = tmp_path / "out.json"
    argv = ["--dataset", str(data), "--no-baselines", "--knowledge-source", "covering", "--json", str(out)]
    assert simulate.main(argv + ["--grow-share", "1"]) == 0
    settings = json.loads(out.read_text())["settings"]
    assert settings["knowledge"] == "covering" and settings["grow_share"] == 1.0
    assert TraceSettings().knowledge == "tree"  # the default stays the tree path (validation)


def kb_train():
    docs = [({"sport"}, ["goal", "league", "week"])] * 8 + [({"sport"}, ["league", "coach", "week"])] * 4
    docs += [({"business"}, ["shares", "profit", "week"])] * 6 + [({"tech"}, ["software", "week"])] * 6
    return [
        datasets.Item(n, Path(f"{n}.txt"), frozenset(labels), "train", tokens=tokens)
        for n, (labels, tokens) in enumerate(docs)
    ]


def test_trace_kb_aware_states_the_conditions_covering_most_cases_the_knowledge_base_misses():
    from classifier.acquisition import RuleProposal

    train = kb_train()
    settings = TraceSettings(kb_aware=True)
    expert = RuleTraceExpert(TraceKnowledge(train, sorted(TOPIC_WORDS), settings), FOLDERS)
    case = frozenset({"league", "coach", "week"})
    proposal = RuleProposal(RuleKind.NEW, FOLDERS["sport"], frozenset())
    # 'coach' is as precise as 'league' but 'league' takes in all 12 sport cases the (empty) knowledge base misses
    assert expert._kb_choose(case, proposal, ["coach"], []) == (["league"], [])
    # a rule already giving 'league' cases sport: nothing left for the choice to gain, the stated rule stays
    expert._validate_and_commit(0, train[0].case, proposal.with_conditions(["league"]), lambda w: 1.0)
    assert expert._kb_choose(case, proposal, ["coach"], []) == (["coach"], [])
    # never less precise than the rule it would state: 'week' takes in every case, so it is never chosen
    assert expert._kb_choose(frozenset({"week", "software"}), proposal, ["week"], [])[0] != ["software"]


def test_trace_kb_aware_keeps_the_knowledge_base_verdicts_on_the_training_part():
    items = synthetic_items()
    train = [i for i in items if i.split == "train"]
    runs = {}
    for kb_aware in (False, True):
        settings = TraceSettings(max_depth=4, kb_aware=kb_aware)
        knowledge = TraceKnowledge(train, sorted(TOPIC_WORDS), settings)
        expert = RuleTraceExpert(knowledge, FOLDERS)
        for item in train:
            expert.learn(item.id, item.case, item.labels)
        runs[kb_aware] = expert
    expert = runs[True]
    for i, case in enumerate(expert.trace.cases):  # the cached verdicts, updated rule by rule, are inference's
        given = {f for f in FOLDERS.values() if expert._kb_given[f, i]}
        assert given == expert.tree.folders(case)
        assert expert._kb_rules[i] == {c.rule_id for c in expert.tree.infer(case)}
    assert expert.stats.unresolved == 0
    assert expert.stats.rules <= runs[False].stats.rules  # no more rules to cover the training part
    assert not hasattr(runs[False], "_kb_given")  # off by default: no cache, the usual rules


# ---------------------------------------------------------------------------- the expert that reads the rule page
def test_from_suggestions_states_only_shown_words_and_reports_their_ranks(tmp_path, capsys):
    data = tmp_path / "data"
    write_corpus(data, n_per_label=20, with_split=True)
    items = datasets.load_manifest(data)
    assert all(item.weights for item in items)  # what each case's DocView keywords are computed from
    free, _ = experiment.run(items, with_baselines=False)
    assert free.view is None
    for limit in (0, 3):
        expert, curve = experiment.run(items, with_baselines=False, from_suggestions=limit)
        view = expert.view
        assert view is not None and view.stored == curve[-1].cases_seen
        assert view.ranks and all(rank >= 1 for rank in view.ranks)
        if limit:
            assert max(view.ranks) <= limit
        summary = experiment.summary(curve, expert)["suggestions"]
        assert summary["from_suggestions"] == (limit or "unlimited") and summary["median_rank"] >= 1
    with pytest.raises(ValueError, match="rule-trace expert"):
        experiment.run(items, with_baselines=False, from_suggestions=5, expert="svm")
    out = tmp_path / "out.json"
    assert simulate.main(["--dataset", str(data), "--no-baselines", "--from-suggestions", "5", "--json", str(out)]) == 0
    assert "median rank" in capsys.readouterr().out
    assert json.loads(out.read_text())["suggestions"]["from_suggestions"] == 5


def test_page_kinds_builder_lists_four_kinds_of_pages(tmp_path):
    source = tmp_path / "kinds"
    (source / "html").mkdir(parents=True)
    rows = ["id,page_type,domain,url,html"]
    for n, kind in enumerate(["service", "forum", "article", "listing", "product", "docs"]):
        (source / "html" / f"{n}.html.gz").write_bytes(gzip.compress(b"<html><body><p>x</p></body></html>"))
        rows.append(f"{n},{kind},d{n}.org,https://d{n}.org/,html/{n}.html.gz")
    (source / "manifest.csv").write_text("\n".join(rows) + "\n")
    assert datasets.build("kinds4", tmp_path / "out", source) == 4
    lines = (tmp_path / "out" / "manifest.csv").read_text().splitlines()
    assert lines[0] == "path,labels,site" and {line.split(",")[1] for line in lines[1:]} == set(datasets.PAGE_KINDS)


def test_suggestion_bound_reports_where_the_page_and_a_fitted_ranking_put_the_wanted_words(tmp_path, capsys):
    from research import suggestion_bound

    data = tmp_path / "data"
    write_corpus(data, n_per_label=20, with_split=True)
    expert, _ = experiment.run(datasets.load_manifest(data), with_baselines=False, from_suggestions=0)
    choices = expert.view.choices
    # every condition the expert wanted, with the list it was wanted from, the page's rank of it recorded
    assert choices and all(any(item.word == c.wanted for item in c.listed) for c in choices)
    # (the ranks stated hold the must-be-absent words' too)
    assert not Counter(map(suggestion_bound.page_rank, choices)) - Counter(expert.view.ranks)
    new_first = [c for c in choices if c.kind == RuleKind.NEW and not c.stated]
    assert new_first and all(c.folder_cases >= 0 for c in new_first)
    fitted = suggestion_bound.fitted_ranks(choices)
    assert len(fitted) == len(choices) and all(1 <= r <= len(c.listed) for r, c in zip(fitted, choices, strict=True))
    assert suggestion_bound.main(["--dataset", str(data)]) == 0
    out = capsys.readouterr().out
    assert "a new rule's first word" in out and "the best fitted ranking (in sample)" in out
