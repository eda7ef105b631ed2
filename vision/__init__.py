"""Camera sources, card finding, template matching, decks and enrolment.

Decks and demo decks (``vision.deck``, ``vision.demo_decks``)
-------------------------------------------------------------
A deck is a folder: ``manifest.json`` (schema ``tablekeeper.deck`` version 1) plus one
template image per card face at the deck's canonical size (200x300 cards, 200x200 tiles).

- ``load_deck(path) -> Deck``; raises ``DeckError`` (a ``ValueError``) naming folder, card
  and problem.
- ``Deck(root, id, game, title_zh, title_en, demo, shape, size, use_colour, cards,
  templates)``; ``deck.ids``, ``deck.card(id) -> CardSpec``, ``deck.template(id)`` (BGR
  uint8, (h, w, 3), read-only), ``deck.with_card(spec, image) -> Deck`` (add/replace a face),
  ``deck.manifest()``.
- ``CardSpec(id, name_zh, name_en, kind, file, value=None, contains=(), copies=1)``:
  ``value`` is a card's number, ``contains`` the item ids a 什麼不見啦 scene shows,
  ``copies`` how many physical cards carry the face.
- ``save_deck(deck, root=None, only=None) -> Deck``: atomic (temp file, fsync,
  ``os.replace``); ``only`` writes just those cards' images (enrolment).
- ``demo_deck(name, cache_dir=None) -> Path``: the generated demo deck folder (cached, regenerated
  when ``GENERATOR_VERSION`` changes). Names in ``DEMO_DECKS``: ``the-game``, ``wink``,
  ``something-missing-items``, ``something-missing-scenes``, ``eselsbruecke``.
  ``build_demo_deck(name)`` draws one in memory; ``random_card(seed, size)`` draws a face in
  no deck (false-accept tests).
- CLI: ``tablekeeper vision make-demo-decks OUT [--deck NAME ...]``.
- ``vision.cli.register`` creates the ``vision`` parser; add sub-commands to its sub-parser
  collection there.
"""
