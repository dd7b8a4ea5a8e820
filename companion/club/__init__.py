"""The club: tables publish their games to an MQTT broker, one hub shows them all.

``settings`` (the broker, the club and the table), ``topics`` (the topic tree), ``public``
(what may leave the table: never a hidden card), ``publisher`` (a Session's outbox, read from
its journal), ``hub`` (the subscriber that applies each entry once), ``standings`` (league
tables and exports) and ``web`` (the hub's page). docs/club.md describes the protocol.
"""
