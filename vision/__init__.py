"""Table camera: frame sources, the scene renderer, card, tile and dice recognisers.

See docs/architecture.md (vision) and each subpackage's docstring; ``vision`` never imports
``controller``.
"""
