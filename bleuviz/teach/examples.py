"""The ready-made candidates the Learn page offers, each with what it teaches.

Every example is written for bleuviz and shows one property of BLEU: clipping,
effective order, the brevity penalty, the choice of reference length, and the
cost of a paraphrase. ``bleuviz.teach.walkthrough`` computes their steps.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Example:
    """A ready-made candidate with references, and what it teaches."""

    key: str
    title: str
    hypothesis: str
    references: tuple[str, ...]
    lesson: str
    question: str = ""  # what to predict before revealing the steps (an exercise)


# Written for bleuviz. The worked example's counts are checked by hand in
# tests/test_walkthrough.py: 9/10, 7/9, 5/8, 4/7, whose product is exactly 1/4.
EXAMPLES: tuple[Example, ...] = (
    Example(
        "worked",
        "Worked example: two references",
        "The committee approved the new budget on Friday evening.",
        (
            "On Friday afternoon the committee approved the new budget.",
            "The committee passed the new budget on Friday.",
        ),
        "Each n-gram may be found in either reference. The precisions are 9/10, 7/9, 5/8 "
        "and 4/7; their product is exactly 1/4, so BLEU = 100 × (1/4)^(1/4) = 70.71. "
        "Matching is case-sensitive: “on” does not match “On”.",
        "Multiple references: each n-gram may be found in either. Predict p1 to p4, "
        "then the score.",
    ),
    Example(
        "clipping",
        "Clipping a repeated word",
        "the the the the the the the",
        ("the cat is on the mat.", "there is a cat on the mat."),
        "Every “the” is in a reference, but no reference holds more than two, so only two "
        "of the seven count: the unigram precision is 2/7, not 7/7.",
        "Clipping: how many of the seven “the” are credited? Predict m1 and p1.",
    ),
    Example(
        "short",
        "A short exact match that corpus BLEU scores 0",
        "Good morning.",
        ("Good morning.",),
        "Three tokens have no 4-gram. Without effective order (sacrebleu's corpus_bleu) "
        "the 4-gram precision is 0 and so is the score; sentence_bleu averages only the "
        "orders that exist and gives 100. Compare the two in the table of library calls below.",
    ),
    Example(
        "brevity",
        "The brevity penalty: a short candidate",
        "The train was two hours late.",
        ("The morning train to the airport was two hours late because of the snow.",),
        "Every word of the candidate is right, but it says half as much as the reference: "
        "c = 7 against r = 15, so the brevity penalty exp(1 − 15/7) = 0.319 cuts the score.",
        "Brevity: every word is right. Predict BP, then BLEU.",
    ),
    Example(
        "lengths",
        "References of different lengths: closest or shortest",
        "The museum opens at nine.",
        (
            "Opens at nine.",
            "The museum opens at nine daily.",
            "Every day of the week, the museum opens its doors at nine.",
        ),
        "c = 6. sacrebleu and nltk take the closest reference length (7; a tie would go to "
        "the shorter), so BP = 0.846. tf-nmt takes the shortest (4): no penalty. "
        "Switch the flavour to see r change.",
    ),
    Example(
        "paraphrase",
        "A good paraphrase that BLEU punishes",
        "The physician told him to stop smoking right away.",
        ("The doctor advised him to quit smoking immediately.",),
        "The meaning is the same, but BLEU counts shared words, not shared meaning: "
        "physician/doctor, told/advised, stop/quit and right away/immediately all miss.",
    ),
    Example(
        "smoothing",
        "Smoothing: no 4-gram in common",
        "The cat sat quietly on a mat.",
        ("The cat sat on the mat.",),
        "No 4-gram of the candidate is in the reference: m4 = 0. Unsmoothed, log 0 would "
        "make BLEU 0; sacrebleu's exp smoothing gives that order 1/(2·t4) instead. Switch "
        "the smoothing, or read the table of library calls, to see each rule.",
        "Smoothing: predict m4 and the smoothed p4 (sacrebleu's exp), then BLEU.",
    ),
    Example(
        "tokenization",
        "Tokenization: punctuation and contractions",
        "Don't stop: it's 3.5% cheaper!",
        ("Do not stop, it is 3.5 % cheaper.",),
        "13a splits punctuation off words but keeps “Don't” whole, so “%” matches but "
        "“Don't” never meets “Do not”. Compare the tokenizers' table further down: "
        "each gives other tokens, so another c, other n-grams and another score.",
        "Tokenization: predict c (the candidate's token count) through m1, then BLEU.",
    ),
)
EXAMPLE_BY_KEY: dict[str, Example] = {example.key: example for example in EXAMPLES}
