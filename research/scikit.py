"""scikit-learn and numpy, imported on first use: the ``bench`` extra installs them (so does ``make test``), and
the research package imports without them."""

from __future__ import annotations


def sklearn():
    """The scikit-learn (and numpy) names the research code uses, by name; a clear exit when it is missing."""
    try:
        import numpy as np
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.metrics import f1_score
        from sklearn.multiclass import OneVsRestClassifier
        from sklearn.naive_bayes import MultinomialNB
        from sklearn.preprocessing import MultiLabelBinarizer
        from sklearn.svm import LinearSVC
    except ImportError as exc:  # pragma: no cover
        raise SystemExit("the simulated expert needs scikit-learn: pip install -e '.[bench]'") from exc
    return {
        "np": np,
        "CountVectorizer": CountVectorizer,
        "f1_score": f1_score,
        "OneVsRestClassifier": OneVsRestClassifier,
        "MultinomialNB": MultinomialNB,
        "MultiLabelBinarizer": MultiLabelBinarizer,
        "LinearSVC": LinearSVC,
    }


def identity(tokens):
    """An analyzer for the vectorizers: the case is already its features."""
    return tokens
