"""The finder's batch edge scoring copes with a frame that yields no candidates."""

from __future__ import annotations

import numpy as np

from vision.find import _edge_support_many


def test_no_candidate_quads_scores_nothing() -> None:
    edges = np.zeros((48, 64), np.uint8)
    scores = _edge_support_many(edges, np.zeros((0, 4, 2), np.float32))
    assert scores.shape == (0,)


def test_a_quad_on_edges_scores_one() -> None:
    edges = np.zeros((48, 64), np.uint8)
    edges[10, 10:51] = edges[40, 10:51] = 255
    edges[10:41, 10] = edges[10:41, 50] = 255
    quad = np.array([[[10, 10], [50, 10], [50, 40], [10, 40]]], np.float32)
    assert _edge_support_many(edges, quad)[0] == 1.0
