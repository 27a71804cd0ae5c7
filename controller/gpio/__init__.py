"""The table's buttons, buzzer and RGB status LED, through gpiozero.

:mod:`.pins` says which BCM pin is what (validated from config), :mod:`.factory`
makes the gpiozero pin factory a config names (``mock`` in tests, ``lgpio`` on a
Pi 5, ``rpigpio`` on earlier Pis), :mod:`.panel` turns presses into commands and
a game state into the LED's colour and the buzzer's beeps. gpiozero itself is
imported only here, so the rest of the controller runs without it.
See docs/gpio.md.
"""
