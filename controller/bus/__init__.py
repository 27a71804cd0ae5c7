"""The MQTT messaging layer: topics, envelopes and their schemas, the bus seam, a private broker.

* :mod:`controller.bus.topics` — topic names under ``kiebitz/v1/<table>/`` (pure);
* :mod:`controller.bus.envelope` — the JSON envelope codec, validated by JSON Schema (pure);
* :mod:`controller.bus.bus` — :class:`Bus` with :class:`MemoryBus` (fake) and
  :class:`MqttBus` (paho-mqtt, MQTT 5), opened by URL with :func:`open_bus`;
* :mod:`controller.bus.dispatch` — decode, validate, de-duplicate and route to handlers;
* :mod:`controller.bus.broker` — a private Mosquitto for ``kiebitz run`` and the tests.

See ``docs/mqtt.md``.
"""
