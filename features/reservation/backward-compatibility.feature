@area:compat
Feature: Backward compatibility when the PMIx in use lacks an attribute

  All five reservation attributes are optional, and the runtime must build
  and run against a PMIx that defines none, some or all of them. A key the
  PMIx does not define is simply not understood: a request that carries it
  is treated as if the attribute were absent, and the documented fallback
  applies.

  - Without PMIX_ALLOC_TARGET, a dynamic allocation is always reserved to the
    requester's own namespace.
  - Without PMIX_ALLOC_SHARE, the "reserve" default applies: a dynamic
    request never routes nodes to the default pool.
  - Without PMIX_SPAWN_TARGET, a spawn uses the default (or parent) session
    exactly as before reservations existed.

  And a request that carries none of the attributes behaves exactly as in a
  runtime that predates reservations: its allocation is reserved to the
  requester, its spawn goes to the default session.

  A scenario about a missing key runs against an implementation whose PMIx
  lacks that key, or that can be started as if it did. (Specification:
  "Backward compatibility", "Attribute contract", conformance summary item 7.
  The PMIX_ALLOC_INHERITANCE and PMIX_ALLOC_WARN_TIMEOUT fallbacks are covered
  with the lifecycle and the timeout warning; the inheritance rejection is in
  the error table.)

  # An attribute whose key the PMIx lacks cannot trigger the rejections that
  # depend on it (an application's PMIX_ALLOC_TARGET, an unknown or unowned
  # PMIX_SPAWN_TARGET): interpretation point IP-MISSING-KEY-IGNORED.

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3,s4" with 4 slots each
    And tool "T" is connected
    And job "A" is running 1 process, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"

  # ------------------------------------------------- no PMIX_ALLOC_TARGET ----

  @without:PMIX_ALLOC_TARGET @clause:NR.compat.no-target-key @clause:NR.compat.runs-without-keys @clause:NR.conformance.7
  Scenario Outline: Without PMIX_ALLOC_TARGET, a tool's PMIX_ALLOC_TARGET is not understood and the node is reserved to the tool (PMIX_ALLOC_SHARE <share>)
    When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1"    |
      | PMIX_ALLOC_TARGET    | job A   |
      | PMIX_ALLOC_SHARE     | <share> |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And node "s1" is reserved to allocation "R"
    And tool "T" may spawn into allocation "R"
    And job "A" may not spawn into allocation "R"
    And job "B" may not spawn into allocation "R"

    Examples:
      | share    |
      | (absent) |
      | false    |

  @without:PMIX_ALLOC_TARGET @clause:NR.compat.no-target-key @clause:NR.conformance.7 @interpretation:IP-MISSING-KEY-IGNORED
  Scenario Outline: Without PMIX_ALLOC_TARGET, an application's PMIX_ALLOC_TARGET is not refused: the node is reserved to the application (target <target>)
    When job "A" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1"     |
      | PMIX_ALLOC_TARGET    | <target> |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And node "s1" is reserved to allocation "R"
    And job "A" may spawn into allocation "R"
    And job "B" may not spawn into allocation "R"
    And tool "T" may not spawn into allocation "R"

    Examples:
      | target |
      | job B  |
      | job A  |
      | tool T |

  # ------------------------------------------------- no PMIX_ALLOC_SHARE ----

  @without:PMIX_ALLOC_SHARE @clause:NR.compat.no-share-key @clause:NR.compat.runs-without-keys @clause:NR.conformance.7
  Scenario Outline: Without PMIX_ALLOC_SHARE, PMIX_ALLOC_SHARE=true is not understood and the node is reserved to the requester (<requester>)
    When <requester> requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
      | PMIX_ALLOC_SHARE     | true |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And node "s1" is reserved to allocation "R"
    And <requester> may spawn into allocation "R"
    And job "B" may not spawn into allocation "R"

    Examples:
      | requester |
      | tool "T"  |
      | job "A"   |

  @without:PMIX_ALLOC_SHARE @clause:NR.compat.no-share-key @clause:NR.compat.runs-without-keys @clause:NR.conformance.7 @needs:PMIX_ALLOC_TARGET
  Scenario: Without PMIX_ALLOC_SHARE, a tool's PMIX_ALLOC_TARGET with PMIX_ALLOC_SHARE=true reserves the node to the target
    When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1"  |
      | PMIX_ALLOC_TARGET    | job A |
      | PMIX_ALLOC_SHARE     | true  |
    Then the request succeeds
    And node "s1" is reserved to allocation "R"
    And job "A" may spawn into allocation "R"
    And tool "T" may not spawn into allocation "R"
    And job "B" may not spawn into allocation "R"

  @without:PMIX_ALLOC_SHARE @clause:NR.compat.no-share-key @clause:NR.conformance.7
  Scenario: Without PMIX_ALLOC_SHARE, PMIX_ALLOC_SHARE=true on an EXTEND does not send the new node to the default pool
    Given job "A" holds allocation "R" of node "s1"
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation R |
      | PMIX_ALLOC_NODE_LIST | "s2"         |
      | PMIX_ALLOC_SHARE     | true         |
    Then the request succeeds
    And nodes "s1,s2" are reserved to allocation "R"
    And job "B" may not spawn into allocation "R"

  @without:PMIX_ALLOC_SHARE @clause:NR.compat.no-share-key @clause:NR.spawn.default-excludes-reserved @clause:NR.conformance.7
  Scenario: Without PMIX_ALLOC_SHARE, a node requested with PMIX_ALLOC_SHARE=true is not offered to a default-session spawn
    Given job "A" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
      | PMIX_ALLOC_SHARE     | true |
    And the request succeeds
    When job "B" spawns job "C" with 6 processes
    Then the request succeeds
    And every process of job "C" is on nodes "n1,n2"
    And no process of job "C" is on node "s1"

  # ------------------------------------------------- no PMIX_SPAWN_TARGET ----

  # Without the key, PMIX_SPAWN_TARGET is not understood: the spawn is an
  # untargeted one and maps onto the default session (for a tool's spawn,
  # the default session only: interpretation point IP-TOOL-SPAWN-DEFAULT).
  # It neither lands on the reserved node nor is refused with
  # PMIX_ERR_NOT_FOUND / PMIX_ERR_NO_PERMISSIONS.
  @without:PMIX_SPAWN_TARGET @clause:NR.compat.no-spawn-target-key @clause:NR.compat.runs-without-keys @clause:NR.conformance.7 @interpretation:IP-TOOL-SPAWN-DEFAULT @interpretation:IP-MISSING-KEY-IGNORED
  Scenario Outline: Without PMIX_SPAWN_TARGET, a spawn naming <what> is an untargeted spawn into the default session (<requester>)
    Given tool "T" holds allocation "R" of node "s1"
    When <requester> spawns job "C" with 2 processes and:
      | PMIX_SPAWN_TARGET | <target> |
    Then the request succeeds
    And every process of job "C" is on nodes "n1,n2"
    And no process of job "C" is on node "s1"

    Examples:
      | what                                     | requester | target                                |
      | the requester's own reservation          | tool "T"  | allocation R                          |
      | its own reservation and the default one  | tool "T"  | [allocation R, the invalid namespace] |
      | an allocation id that does not exist     | tool "T"  | "no-such-allocation"                  |
      | a reservation the requester does not own | job "B"   | allocation R                          |
      | an allocation id that does not exist     | job "B"   | "no-such-allocation"                  |

  # ------------------------------------------ none of the new attributes ----

  @clause:NR.attr.all-optional @clause:NR.attr.target-absent @clause:NR.attr.share-absent-reserves
  Scenario Outline: An allocation request carrying none of the new attributes is reserved to the requester, as before (<requester>)
    When <requester> requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And node "s1" is reserved to allocation "R"
    And <requester> may spawn into allocation "R"
    And job "B" may not spawn into allocation "R"

    Examples:
      | requester |
      | tool "T"  |
      | job "A"   |

  @clause:NR.attr.all-optional @clause:NR.spawn.absent-default @clause:NR.spawn.default-excludes-reserved @interpretation:IP-TOOL-SPAWN-DEFAULT
  Scenario Outline: A spawn carrying none of the new attributes maps onto the default session, as before (<requester>)
    Given tool "T" holds allocation "R" of node "s1"
    When <requester> spawns job "C" with 2 processes
    Then the request succeeds
    And every process of job "C" is on nodes "n1,n2"
    And no process of job "C" is on node "s1"

    Examples:
      | requester |
      | tool "T"  |
      | job "B"   |

  @without:PMIX_ALLOC_TARGET @without:PMIX_ALLOC_SHARE @without:PMIX_SPAWN_TARGET @clause:NR.compat.runs-without-keys @clause:NR.compat.no-target-key @clause:NR.compat.no-share-key @clause:NR.compat.no-spawn-target-key @clause:NR.conformance.7 @interpretation:IP-TOOL-SPAWN-DEFAULT @interpretation:IP-MISSING-KEY-IGNORED
  Scenario: Without PMIX_ALLOC_TARGET, PMIX_ALLOC_SHARE and PMIX_SPAWN_TARGET together, each falls back on its own
    When tool "T" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1"  |
      | PMIX_ALLOC_TARGET    | job A |
      | PMIX_ALLOC_SHARE     | true  |
    Then the request succeeds
    And node "s1" is reserved to allocation "R"
    When tool "T" spawns job "C" with 2 processes and:
      | PMIX_SPAWN_TARGET | allocation R |
    Then the request succeeds
    And no process of job "C" is on node "s1"
    When job "A" spawns job "D" with 2 processes and:
      | PMIX_SPAWN_TARGET | allocation R |
    Then the request succeeds
    And no process of job "D" is on node "s1"
