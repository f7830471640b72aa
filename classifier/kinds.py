"""The kinds of MCRDR rule, in a module of their own (pure Python): models, forms and templates name them
without importing the inference engine."""

from __future__ import annotations

from enum import StrEnum


class RuleKind(StrEnum):
    """The kinds of MCRDR rule: the one vocabulary of the engine, acquisition, services, forms and templates.

    The values are what forms and URLs carry (``?kind=stop``); :attr:`label` is how lists name the kind.
    """

    NEW = "new"  # ground-breaking: under the root, it adds a folder
    REFINE = "refine"  # refining: under the rules that gave a wrong folder, another folder instead
    STOP = "stop"  # stopping: under the rules that gave a wrong folder, it withholds that folder

    @classmethod
    def of(cls, parent_id: int | None, folder: int | None) -> RuleKind:
        """The kind of a rule from where it hangs and what it concludes."""
        if folder is None:
            return cls.STOP
        return cls.NEW if parent_id is None else cls.REFINE

    @property
    def label(self) -> str:
        return _KIND_LABELS[self]


_KIND_LABELS = {RuleKind.NEW: "new", RuleKind.REFINE: "refining", RuleKind.STOP: "stopping"}
