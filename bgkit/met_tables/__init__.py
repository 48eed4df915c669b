"""Match equity tables bgkit ships (data only): see :func:`bgkit.met.shipped_met`."""
