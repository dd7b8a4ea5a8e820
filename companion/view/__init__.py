"""The table view: a live page of the game beside the voice (``play ... --view``).

- ``document``: the page's JSON, built from the Session on the table loop's thread: the public
  view for the big screen, and each player's private part (their hand, their choices).
- ``families``: what each family of games adds to it (a Monopoly board, a pegboard, ...).
- ``choices``: the legal actions as the commands a player would type.
- ``feed``: the Session listener that builds a new document on each event and sentence.
- ``server``: the ASGI app and its thread (Starlette, uvicorn, websockets); page taps come
  back as typed commands into the table loop's inbox, so the Session handles them as any
  other input (journal first).

Nothing here is imported unless ``--view`` is given.
"""
