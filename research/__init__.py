"""Research code, outside the installed package: the simulated expert (Compton's method) that grows an MCRDR
knowledge base from labelled news and compares it with naive Bayes and a linear SVM, and the builders of its
dataset manifests. Used by the MCRDR benchmark (make bench-mcrdr) and its tests; never by a request.

    python -m research.datasets {bbc,reuters} OUT
    python -m research.simulate --dataset OUT [--json FILE]
"""
