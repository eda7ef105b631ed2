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
- CLI: ``tablekeeper vision make-demo-decks OUT [--deck NAME ...]``;
  ``tablekeeper vision sim-frames OUT [--deck the-game --frames 8 --cards 6 --seed 0
  --surface wood]`` renders simulated frames to PNG with ``truth.json``;
  ``tablekeeper bench sim`` prints rendering ms/frame.
- ``vision.cli.register`` creates the ``vision`` parser; add sub-commands to its sub-parser
  collection there.

Camera frames and the simulated table (``vision.camera``, ``vision.simtable``)
-----------------------------------------------------------------------------
- ``Frame(image, grey, t_ns, seq)``: BGR uint8 image, greyscale for finding (or None),
  CLOCK_MONOTONIC ns, sequence number. ``Camera`` protocol: ``configure(size=None)``,
  ``start()``, ``capture() -> Frame``, ``close()``; failures raise ``CameraError``
  (``EndOfFrames`` when a folder or video file runs out).
- ``Picamera2Source(camera_num=0, *, size=(1280, 960), lores=None, fps=30, warmup_frames=20,
  settle_frames=4, timestamp_basis="monotonic", factory=None)``: main RGB888 (BGR) for
  matching, lores YUV420 Y plane as ``grey`` (half size by default: scale corners found on
  ``grey`` by ``image.shape / grey.shape``); AE/AWB/AF locked after warm-up (``.locked``).
- ``OpenCVSource(device=0, *, size=None, fps=None)`` (webcam or video file),
  ``FolderSource(folder, *, loop=False, size=None, clock=None)`` (images in name order).
- ``ResilientCamera(open_camera, *, clock, size=None, first_retry_s=1, max_retry_s=30,
  factor=2, on_status=None)``: ``capture() -> Frame | None`` never raises; ``.status`` is a
  ``CameraStatus(state, failures, retry_in_s, error)`` with ``message_en`` / ``message_zh``
  ("camera disconnected, retrying in 4 s" / 「攝影機已斷線，4 秒後重試」).
- ``CameraConfig.from_dict(d)`` / ``to_dict()``: the ``[camera]`` config section (source
  auto|picamera2|opencv|folder|sim, size, lores, fps, device, folder, back-off ...);
  ``open_camera(config, *, deck=None, clock=...) -> Camera`` (unstarted) and
  ``resilient_camera(config, *, deck=None, clock=..., on_status=None) -> ResilientCamera``.
- ``SimulatedTable(deck, *, seed=0, size=(640, 480), conditions=None, surface=None,
  card_width=(0.14, 0.19), rotation=(0, 360), clock=None, frame_period_ns=33_333_333)``
  is a ``Camera``. Script it with ``place(card_id, where) -> handle`` (``where``: a zone of
  ``ZONES`` such as "centre", a ``Pose(x, y, angle, width)`` or an (x, y) centre),
  ``place_foreign(where, image=None, label=None)``, ``place_back(where, style=0)`` (face
  down), ``remove(handle | card_id)``, ``clear()``,
  ``hand_pass(frames, target="centre", side=None)``; poses from ``pose_for(zone)``,
  ``grid_pose(row, col, rows=6, cols=6)`` (Wink's grid) and ``seat_pose(seat, seats)``
  (in front of a player, facing them); ``truth(min_visible=0.0)`` lists
  ``TruthCard(handle, card_id, in_deck, corners (4x2 frame px, printed top-left first,
  clockwise), visible (fraction), covered_by_hand)`` for the last captured frame.
  ``Conditions.clean(surface)`` / ``Conditions.random(rng, surface)`` set the look
  (surfaces "wood", "cloth", "dark", "light"; light gradient, colour cast, keystone,
  blur, noise, JPEG quality; opt-in ``glare`` on glossy cards; a moving hand is
  motion-blurred). ``lores=(w, h)`` makes
  ``Frame.grey`` smaller like the Pi's lores stream.

Finding, matching, events, enrolment (``vision.find``, ``vision.match``, ``vision.tracker``,
``vision.enroll``, ``vision.config``, ``vision.bench``)
---------------------------------------------------------------------------------------
- ``CardFinder(size, params=FindParams()).find(frame, region=None, known=()) ->
  list[FoundCard]`` (largest first): every whole card in a uint8 grey or BGR frame (only
  those wholly inside ``region`` = (x0, y0, x1, y1), where the cards at ``known`` lie
  already); ``FoundCard.corners`` (4x2 float32 frame px, clockwise, a short edge first),
  ``.centre``, ``.area``, ``.straight``, ``.others`` (rough outlines that gave way to this
  one: where it is no card, the top card of a pile may be one of them; ``settle(frame,
  corners)`` places one on the card's edges). After ``find``, ``unexplained`` lists boxes
  around paper no card found covers. ``find_and_warp(frame) -> [(FoundCard, warped BGR at
  size)]``; ``find_near(frame, corners)`` (boxes from straight edges around an unknown shape:
  the top card of a pile); ``warp_card(image, corners, size)``; ``order_corners(pts,
  square=False)`` / ``order_corners_many``. Bad frames raise ``FrameError`` (a ValueError).
- ``DeckMatcher(ids, templates, size, *, square=False, use_colour=False, params=None)`` or
  ``DeckMatcher.from_deck(deck, params)``: ``match(patch) -> Match``, ``match_many(patches)``,
  ``match_quads(image, corners_list)`` (warped straight from the frame to ``warp_size``),
  ``candidates(patch)`` / ``candidates_in(image, corners)``, ``aligner``,
  ``scores(patch)`` (best over orientations, per card), ``score_matrix(patches)``
  (patches x cards x orientations), ``verify(image, grey, corners, match) -> (corners,
  Match)`` (a card accepted below ``min_aligned``, aligned: still that card only if it then
  scores ``min_aligned``). ``Match(card_id | None, score, margin, best_id, rotation,
  rel_margin, colour, twin_margin)``: ``card_id`` is None for an unknown card; ``colour`` how
  its colours fit the card's (colour decks; 1.0 when not compared); ``twin_margin`` the
  near-twin step's lead (nan when it did not run). Near-twins: when the best card's margin is
  below ``twin_trigger`` (0.05) or its relative margin below ``min_rel_margin``, the
  candidates within ``twin_within`` of it are compared again at ``twin_side`` px (144) from
  the frame, only where their templates differ, and the winner accepted by
  ``min_twin_margin`` (``twin_trigger = 0``: off). ``MatchParams(long_side=48,
  blur_sigma=1.0, local_contrast=True, subtract_mean=True, shortlist=12, min_score,
  min_margin, min_rel_margin, min_aligned=0.9, min_colour=0.75)``; ``EXACT`` gives
  cv2.matchTemplate(TM_CCOEFF_NORMED)'s score; ``colours(image)`` (log chromaticity at 12 px).
- ``CardWatcher(deck, config=VisionConfig(), deck_id=None)``: ``process(frame) ->
  list[CardEvent]`` each frame; ``observe(image) -> list[Observation]`` (no tracking; corners
  in the card's own orientation); ``last`` (the last frame's observations); ``on_table``;
  ``reset()``. ``CardEvent(t_ns, seq, zone, card_id, score, margin, corners,
  first_seen_ns)`` (frozen).
- ``VisionConfig.from_dict(d) / to_dict()``: the ``[vision]`` section (``find``, ``match``,
  ``match.decks.<deck id>`` thresholds, ``zones``, ``stable_frames``, ``forget_frames``,
  ``min_sharpness``); ``config.match_params(deck_id)``. ``Zone(name, polygon).contains(x, y)``;
  ``zones_from_cards(quads, layout, names=(), grow=1.5)`` (layouts ``pile``, ``cards``,
  ``rows:N``, ``grid:RxC``); ``zones_toml(zones)``.
- ``enroll_from_images(deck_dir, src_dir, *, new=NewDeck(...) | None, add_new=False) ->
  EnrolReport`` (``.enrolled``, ``.skipped``, ``.ignored``, ``.missing``, ``.complete``,
  ``.text()``); ``template_from_image(image, size) -> (template, "photo" | "scan" |
  "cut-out")`` (a BGRA image with transparent pixels is cut out by its alpha channel);
  ``read_image(path, alpha=False)``; ``deck_id_from_folder(path)`` (``--id``'s default).
- ``vision.imagefile``: ``read_image_file(path)`` / ``decode_image(data, what)`` check the
  size an image file's header declares (``image_size``: PNG, JPEG, BMP, WebP, TIFF) before
  decoding and raise ``ImageFileError`` above ``MAX_IMAGE_PIXELS``; every image file the
  package decodes goes through them.
  ``LiveEnroller(cards, size, *, min_sharpness=60, steady_frames=3, progress=callback)`` with
  ``step(image) -> EnrolProgress`` / ``run(frames)`` / ``save(deck)`` (the deck's
  foreign-card gate measured and kept in its manifest: ``measure_fit(deck) -> FitMeasure``,
  ``store_fit(root)``); ``EnrolProgress(index,
  total, card_id, name_zh, name_en, state, sharpness)`` with ``message_en`` / ``message_zh``;
  ``sharpness(image)`` (variance of the Laplacian).
- ``vision.align.Aligner(templates, size, params=AlignParams()).align(grey, corners, index,
  rotation=0) -> corners | None``: the card moved onto template ``index`` by what is printed
  on it (``cv2.findTransformECC``, homography); None when it does not fit.
- ``vision.tracker.recognise(finder, matcher, image, region=None, known=(),
  regions=False) -> list[(FoundCard, Match)]``: what ``CardWatcher.observe`` runs on a
  frame (with ``regions=True``: after the cards, "something is there" -- paper no card
  found explains, from a third of a card, as a box with ``Match.gate == "region"``, no id)
  — find, match,
  re-match a weak card with its outline grown outward (the finder often gets only a card's
  printed frame), align a card left unknown to its best candidates and match again
  (recognised that way only from ``ALIGNED_MIN_SCORE``; the next candidate only while the
  last came to ``_ALIGN_GO_ON``), and around a box still unknown try the outlines that gave
  way to it and look for straight-edge boxes (``find_near``: a loose box around a pile); the
  same where paper is unexplained; every card recognised below ``min_aligned`` verified
  (``DeckMatcher.verify``). A card found only from straight edges
  (``FoundCard.straight``) must score at least ``STRAIGHT_MIN_SCORE``. ``CardWatcher``
  skips the search on a frame showing the same table as the last one searched
  (``STILL_LEVELS``), searches only the part that changed (``PART_MAX``, ``part_max``), and
  the whole frame at least every ``REFRESH_FRAMES``-th frame; ``searched`` /
  ``searched_part`` / ``still`` count them.
- ``vision.bench``: ``generate_frames(deck, n, seed, start=0)``, ``evaluate(deck, frames,
  find, match) -> DeckScore``, ``speed_ratio(...)``, ``latency(..., part_search=True)`` (also
  the camera stream's CPU per frame), ``pile(deck, piles, per_pile, seed)
  -> PileScore`` (the centre pile: top card found and recognised, event within 3 frames),
  ``main(frames, seed, decks, threads=1)``.
- ``vision.styles``: ``build_style_deck(name)`` for ``STYLES`` (corner-number, big-number,
  suits, colour-only, shading-only: near-twins by design); ``vision.realsets``: real labelled
  photo sets read from ``$TABLEKEEPER_REAL_SETS`` or ``../shared/data`` (``find_set``,
  ``load_set``, ``RealSet.split``, ``enrol``, ``tune``, ``measure``; never shipped).
- CLI: ``tablekeeper vision recognize --deck DIR IMAGE...`` (JSON lines), ``tablekeeper
  vision enroll --deck DIR (--from-images SRC | --camera SPEC)``, ``tablekeeper vision
  calibrate --deck DIR (--image F | --camera SPEC) --layout L``, ``tablekeeper bench vision
  [--frames N] [--seed S] [--deck NAME] [--threads N] [--quick | --styles | --real]``.
"""
