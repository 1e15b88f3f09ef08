"""The video a table camera sees over whole rounds on a layout's felt, rendered with its truth.

``state``: what lies in each region (``TableState``); ``camera``: a camera fixed over the felt
(pose, light, noise, JPEG); ``render``: the felt and a state drawn on it; ``arm``: the dealer's
arm; ``timeline``: timed states as frames, the arm between them; ``round_steps``: one round's
states; ``recording``: a timeline written as a recording's camera folder
(``docs/recordings.md``, "Camera frames") and its truth read back.
"""
