"""DST scoring conventions as signed switches, the presets of published scripts and the ladder
between two conventions (spec-dst-metrics §12).

Modules: :mod:`.switches` (the switches and signature), :mod:`.cleaning` and
:mod:`.trade_cleaning` (keys and values), :mod:`.turns` (raw turns), :mod:`.views`
(interned views of raw states), :mod:`.scoring`,
:mod:`.presets`, :mod:`.ladder` and :mod:`.tables`."""
