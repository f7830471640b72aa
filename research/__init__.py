"""Research code, outside the installed package: the simulated expert (Compton's method) that grows an MCRDR
knowledge base from labelled news and compares it with naive Bayes and a linear SVM, and the builders of its
dataset manifests. Used by the MCRDR benchmark (make bench-mcrdr) and its tests; never by a request.

    python -m research.datasets {bbc,reuters} OUT
    python -m research.simulate --dataset OUT [--json FILE]

By role: ``datasets`` (the manifests: built from BBC News and Reuters-21578, read as labelled cases),
``knowledge`` and ``covering`` (the experts' domain knowledge: SVM term weights, decision trees, covering rules),
``experts`` (the simulated experts), ``baselines`` (naive Bayes, linear SVM), ``metrics`` (F1), ``experiment``
(the run at checkpoints and its summary), ``simulate`` (the command line); ``scikit`` imports scikit-learn on
first use.
"""
