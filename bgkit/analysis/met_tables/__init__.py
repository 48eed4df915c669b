"""Match equity tables bgkit ships (data only): see :func:`bgkit.analysis.met.shipped_met`.

``Kazaross-XG2.xml``, GNU Backgammon's default table, is copied unchanged from the
``data/met`` folder of the PyPI ``gnubg`` package (1.1.0a16); the other tables unchanged
from Debian's ``gnubg`` package (1.07.001, ``/usr/share/gnubg/met``): every explicit table
gnubg ships. Each file's notice permits copying and distribution with the notice kept.
"""
