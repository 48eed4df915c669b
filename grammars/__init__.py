"""bgkit's Lark grammars, shipped as package data (``bgkit.grammars``)."""
