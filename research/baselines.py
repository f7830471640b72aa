"""The baselines the knowledge base is compared with: scikit-learn's multinomial naive Bayes and linear SVM,
trained on the bag of words of the same cases the expert has seen."""

from __future__ import annotations

from collections.abc import Sequence

from research.datasets import Item
from research.metrics import f1_scores
from research.scikit import identity, sklearn


def baselines(seen: Sequence[Item], test: Sequence[Item], labels: Sequence[str]) -> dict[str, dict[str, float]]:
    """Naive Bayes and linear SVM trained on the cases seen so far (one-vs-rest if multi-label)."""
    sk = sklearn()
    vectorizer = sk["CountVectorizer"](analyzer=identity)
    x_seen = vectorizer.fit_transform([item.tokens for item in seen])
    x_test = vectorizer.transform([item.tokens for item in test])
    gold = [item.labels for item in test]
    multi = any(len(item.labels) > 1 for item in seen) or any(len(item.labels) > 1 for item in test)
    out = {}

    def svm():
        return sk["LinearSVC"](random_state=0)  # liblinear shuffles: fix it for reproducible runs

    for name, make in (("naive_bayes", sk["MultinomialNB"]), ("linear_svm", svm)):
        if multi:
            binarizer = sk["MultiLabelBinarizer"](classes=list(labels))
            y = binarizer.fit_transform([item.labels & set(labels) for item in seen])
            columns = [j for j in range(y.shape[1]) if 0 < y[:, j].sum() < len(seen)]
            predicted: list[set[str]] = [set() for _ in test]
            for j in range(y.shape[1]):
                if y[:, j].sum() == len(seen):  # every case seen carries the label
                    for p in predicted:
                        p.add(labels[j])
            if columns:
                model = sk["OneVsRestClassifier"](make()).fit(x_seen, y[:, columns])
                result = model.predict(x_test)
                for i, row in enumerate(result):
                    for c, j in enumerate(columns):
                        if row[c]:
                            predicted[i].add(labels[j])
        else:
            y = [next(iter(item.labels)) for item in seen]
            if len(set(y)) == 1:
                predicted = [{y[0]} for _ in test]
            else:
                model = make().fit(x_seen, y)
                predicted = [{p} for p in model.predict(x_test)]
        micro, macro = f1_scores(gold, predicted, labels)
        out[name] = {"micro_f1": micro, "macro_f1": macro}
    return out
