"""Ranking skills by a query: the tokenizer, BM25F's score, and the order `rank` gives."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import satchel
from satchel import Skill
from satchel.hosts._ranking import bm25_scores, rank, tokenize


def skill(name: str, description: str, when: str | None = None) -> Skill:
    return Skill(
        name=name, description=description, when_to_use=when, path=Path(f"/s/{name}/SKILL.md")
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("pdfToText-v2", ["pdf", "to", "text", "v", "2"]),
        ("HTTPServer XMLHttpRequest", ["http", "server", "xml", "http", "request"]),
        ("snake_case, kebab-case; dots.too", ["snake", "case", "kebab", "case", "dots", "too"]),
        ("Straße über_Alles", ["strasse", "über", "alles"]),
        ("  --- ", []),
    ],
)
def test_tokenize_splits_on_non_alphanumerics_hyphens_and_camel_case(text, words):
    assert tokenize(text) == words


def test_bm25_score_is_okapi_with_k1_1_5_and_b_0_75():
    # One field of weight 1: N=2, n=1, idf = ln(1 + 1.5/1.5); the matching document
    # has 2 words against an average of 1.5, so tf = 1 / (0.25 + 0.75 * 2 / 1.5) = 0.8.
    scores = bm25_scores([{"name": "pdf tools"}, {"name": "git"}], "PDF", {"name": 1.0})
    assert scores[0] == pytest.approx(math.log(2) * 0.8 * 2.5 / (0.8 + 1.5))
    assert scores[1] == 0.0


def test_a_query_word_counts_once_however_often_it_is_written():
    docs = [{"name": "pdf"}, {"name": "git"}]
    assert bm25_scores(docs, "pdf pdf pdf", {"name": 1.0}) == bm25_scores(
        docs, "pdf", {"name": 1.0}
    )


def test_rank_puts_the_relevant_skill_first_even_when_it_comes_last():
    skills = [
        skill("git-commit", "Write commit messages."),
        skill("deploy", "Ship the service to production."),
        skill("pdf-forms", "Fill in PDF forms.", "when the user sends a form to fill"),
    ]
    assert [s.name for s in rank(skills, "please fill this form")] == [
        "pdf-forms",
        "git-commit",
        "deploy",
    ]


def test_a_name_match_outranks_a_description_match():
    skills = [skill("notes", "Keeps release notes."), skill("release", "Cuts a version.")]
    assert [s.name for s in rank(skills, "release")] == ["release", "notes"]


def test_when_to_use_is_searched():
    skills = [skill("a", "One."), skill("b", "Two.", "when invoices arrive")]
    assert [s.name for s in rank(skills, "invoices")] == ["b", "a"]


@pytest.mark.parametrize("query", [None, "", "  ...  ", "zebra"])
def test_no_query_or_no_match_keeps_the_order_given(query):
    skills = [skill("c", "Three."), skill("a", "One."), skill("b", "Two.")]
    assert rank(skills, query) == skills


def test_equal_scores_keep_the_order_given():
    skills = [skill("x", "Edit pdf files."), skill("y", "Edit pdf files."), skill("z", "Other.")]
    assert [s.name for s in rank(skills, "pdf")] == ["x", "y", "z"]


def test_rank_skills_is_public_and_takes_a_mapping():
    skills = {s.name: s for s in [skill("a", "One."), skill("b", "About pdf.")]}
    assert [s.name for s in satchel.rank_skills(skills, "pdf")] == ["b", "a"]
