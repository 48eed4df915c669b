"""Match equity tables bgkit ships (data only): see :func:`bgkit.met.shipped_met`.

``Kazaross-XG2.xml`` is GNU Backgammon's default table, copied unchanged from the
``data/met`` folder of the PyPI ``gnubg`` package (1.1.0a16); its notice permits copying
and distribution with the notice kept.
"""
