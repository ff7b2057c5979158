@area:new-extend
Feature: New reservations and extending an existing one

  PMIx_Allocation_request carries a directive. PMIX_ALLOC_NEW always mints a
  fresh reservation with an allocation id of its own, even for a namespace
  that already owns one, so one namespace may hold several reservations side
  by side, each addressed by its PMIX_ALLOC_ID. PMIX_ALLOC_EXTEND instead adds
  the newly granted nodes to an existing reservation. It must name that
  reservation, either by the PMIX_ALLOC_ID the host returned when it was
  created or by the PMIX_ALLOC_REQ_ID the requester chose for the request that
  created it, and it succeeds only when the requester's namespace owns the
  reservation: the namespace it was created for, any job spawned into it, or
  the scheduler (an implicit owner of every session).

  An EXTEND is refused with PMIX_ERR_BAD_PARAM when it names no reservation
  at all, with PMIX_ERR_NOT_FOUND when the name resolves to nothing, and with
  PMIX_ERR_NO_PERMISSIONS when the requester does not own it. A refused
  request leaves no trace.

  Every successful response carries the PMIX_ALLOC_ID of the reservation the
  nodes went to, and echoes back the PMIX_ALLOC_REQ_ID the request supplied.

  (Specification: "New versus extend", "Reporting the result", "Error
  semantics"; plan 8.2.2.6.1 for the order in which an EXTEND's two names are
  tried.)

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3,s4" with 4 slots each
    And tool "T" is connected
    And job "A" is running 1 process, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"

  # ---------------------------------------------------------------- NEW ----

  @clause:NR.new-extend.new-always-fresh @clause:NR.new-extend.several-per-namespace @clause:NR.report.alloc-id @clause:RF.callback.result
  Scenario Outline: PMIX_ALLOC_NEW mints a fresh reservation for a namespace that already owns one (<requester>)
    Given <requester> holds allocation "R1" of node "s1"
    When <requester> requests PMIX_ALLOC_NEW for allocation "R2" with:
      | PMIX_ALLOC_NODE_LIST | "s2" |
    Then the request succeeds
    And the response carries a PMIX_ALLOC_ID
    And allocations "R1" and "R2" have different ids
    And node "s1" is reserved to allocation "R1"
    And node "s2" is reserved to allocation "R2"
    And <requester> may spawn into allocation "R1"
    And <requester> may spawn into allocation "R2"
    And job "B" may not spawn into allocation "R1"
    And job "B" may not spawn into allocation "R2"

    Examples:
      | requester |
      | job "A"   |
      | tool "T"  |

  @clause:NR.new-extend.new-always-fresh @clause:NR.new-extend.several-per-namespace @needs:PMIX_ALLOC_TARGET
  Scenario: A tool's second PMIX_ALLOC_NEW for the same PMIX_ALLOC_TARGET mints a second reservation owned by that namespace
    Given tool "T" holds allocation "R1" of node "s1" with:
      | PMIX_ALLOC_TARGET | job A |
    When tool "T" requests PMIX_ALLOC_NEW for allocation "R2" with:
      | PMIX_ALLOC_NODE_LIST | "s2"  |
      | PMIX_ALLOC_TARGET    | job A |
    Then the request succeeds
    And allocations "R1" and "R2" have different ids
    And node "s1" is reserved to allocation "R1"
    And node "s2" is reserved to allocation "R2"
    And job "A" may spawn into allocation "R1"
    And job "A" may spawn into allocation "R2"

  @clause:NR.new-extend.several-per-namespace @clause:NR.report.id-usable @needs:PMIX_SPAWN_TARGET
  Scenario: Each of a namespace's reservations is addressed separately by its own PMIX_ALLOC_ID
    Given job "A" holds allocation "R1" of node "s1"
    And job "A" holds allocation "R2" of node "s2"
    When job "A" spawns job "C" with 2 processes and:
      | PMIX_SPAWN_TARGET | allocation R1 |
    Then the request succeeds
    And every process of job "C" is on node "s1"
    When job "A" spawns job "D" with 2 processes and:
      | PMIX_SPAWN_TARGET | allocation R2 |
    Then the request succeeds
    And every process of job "D" is on node "s2"

  @clause:NR.report.alloc-id @clause:NR.report.req-id-echo @clause:RF.callback.result
  Scenario: The response to PMIX_ALLOC_NEW carries the new PMIX_ALLOC_ID and echoes the PMIX_ALLOC_REQ_ID
    When job "A" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST | "s1"          |
      | PMIX_ALLOC_REQ_ID    | "a-request-1" |
    Then the request succeeds
    And the response carries a PMIX_ALLOC_ID
    And the response echoes PMIX_ALLOC_REQ_ID "a-request-1"
    And node "s1" is reserved to allocation "R"

  # ------------------------------------------------------------- EXTEND ----

  @clause:NR.new-extend.extend-adds-nodes @clause:NR.report.alloc-id @clause:NR.report.req-id-echo @interpretation:IP-EXTEND-REQ-ID-ECHO @clause:RF.callback.result
  Scenario Outline: PMIX_ALLOC_EXTEND adds the new node to the reservation named by <named by>
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_REQ_ID | "a-request-1" |
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | <alloc id> |
      | PMIX_ALLOC_REQ_ID    | <req id>   |
      | PMIX_ALLOC_NODE_LIST | "s2"       |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And the response echoes PMIX_ALLOC_REQ_ID "a-request-1"
    And nodes "s1,s2" are reserved to allocation "R"
    And job "A" may spawn into allocation "R"
    And job "B" may not spawn into allocation "R"

    @clause:NR.new-extend.extend-by-req-id @clause:SE.session.user-refid @clause:RF.id.requester-chosen
    Examples: named by the requester's PMIX_ALLOC_REQ_ID
      | named by          | alloc id | req id        |
      | PMIX_ALLOC_REQ_ID | (absent) | "a-request-1" |

    @clause:NR.new-extend.extend-by-alloc-id @clause:NR.new-extend.extend-by-req-id @clause:SE.session.user-refid @clause:RF.id.requester-chosen
    Examples: named by both ids
      | named by                            | alloc id     | req id        |
      | PMIX_ALLOC_ID and PMIX_ALLOC_REQ_ID | allocation R | "a-request-1" |

  @clause:NR.new-extend.extend-by-alloc-id @clause:NR.new-extend.extend-adds-nodes @clause:NR.report.alloc-id @clause:NR.report.id-usable @clause:RF.callback.result
  Scenario: PMIX_ALLOC_EXTEND by PMIX_ALLOC_ID adds the new node to the reservation
    Given job "A" holds allocation "R" of node "s1"
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation R |
      | PMIX_ALLOC_NODE_LIST | "s2"         |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And nodes "s1,s2" are reserved to allocation "R"
    And job "A" may spawn into allocation "R"
    And job "B" may not spawn into allocation "R"

  @clause:NR.new-extend.extend-adds-nodes @clause:NR.report.id-usable @needs:PMIX_SPAWN_TARGET
  Scenario: After an EXTEND, a spawn into the reservation may use the old and the new node alike
    Given job "A" holds allocation "R" of node "s1"
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation R |
      | PMIX_ALLOC_NODE_LIST | "s2"         |
    Then the request succeeds
    When job "A" spawns job "C" with 8 processes and:
      | PMIX_SPAWN_TARGET | allocation R |
    Then the request succeeds
    And every process of job "C" is on nodes "s1,s2"
    And job "C" has processes on nodes "s1,s2"

  @clause:PL.extend.alloc-id-first @clause:NR.new-extend.extend-by-alloc-id @interpretation:IP-EXTEND-TWO-NAMES
  Scenario: When PMIX_ALLOC_ID and PMIX_ALLOC_REQ_ID name different reservations, the PMIX_ALLOC_ID one is extended
    Given job "A" holds allocation "R1" of node "s1" with:
      | PMIX_ALLOC_REQ_ID | "first" |
    And job "A" holds allocation "R2" of node "s2" with:
      | PMIX_ALLOC_REQ_ID | "second" |
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation R1 |
      | PMIX_ALLOC_REQ_ID    | "second"      |
      | PMIX_ALLOC_NODE_LIST | "s3"          |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R1"
    And nodes "s1,s3" are reserved to allocation "R1"
    And node "s2" is reserved to allocation "R2"

  @clause:PL.extend.alloc-id-first @clause:NR.new-extend.extend-by-req-id @interpretation:IP-EXTEND-TWO-NAMES @clause:SE.session.user-refid @clause:RF.id.requester-chosen
  Scenario: When PMIX_ALLOC_ID names no reservation, an EXTEND falls back to its PMIX_ALLOC_REQ_ID
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_REQ_ID | "a-request-1" |
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | "no-such-allocation" |
      | PMIX_ALLOC_REQ_ID    | "a-request-1"        |
      | PMIX_ALLOC_NODE_LIST | "s2"                 |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And nodes "s1,s2" are reserved to allocation "R"

  # -------------------------------------------------- who may EXTEND ----

  @clause:NR.new-extend.extend-owner-only @clause:PL.extend.owner-set @clause:NR.own.seeded @needs:PMIX_ALLOC_TARGET
  Scenario: The namespace a tool created the reservation for may extend it
    Given tool "T" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_TARGET | job A |
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation R |
      | PMIX_ALLOC_NODE_LIST | "s2"         |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And nodes "s1,s2" are reserved to allocation "R"

  @clause:NR.new-extend.extend-owner-only @clause:PL.extend.owner-set @clause:NR.own.child-added-on-spawn @needs:PMIX_SPAWN_TARGET
  Scenario: A job spawned into the reservation is one of its owners, and may extend it
    Given job "A" holds allocation "R" of node "s1"
    And job "A" spawns job "C" with 1 process and:
      | PMIX_SPAWN_TARGET | allocation R |
    When job "C" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation R |
      | PMIX_ALLOC_NODE_LIST | "s2"         |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And nodes "s1,s2" are reserved to allocation "R"
    And job "A" may spawn into allocation "R"
    And job "B" may not spawn into allocation "R"

  @clause:NR.new-extend.extend-owner-only @clause:PL.extend.owner-set @clause:NR.own.scheduler-implicit @needs:scheduler-requests
  Scenario: The scheduler, an implicit owner of every session, may extend any reservation
    Given job "A" holds allocation "R" of node "s1"
    When the scheduler requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation R |
      | PMIX_ALLOC_NODE_LIST | "s2"         |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And nodes "s1,s2" are reserved to allocation "R"
    And job "A" may spawn into allocation "R"
    And job "B" may not spawn into allocation "R"

  # ------------------------------------------------------ EXTEND errors ----

  @clause:NR.error.extend-no-id @clause:NR.reject.alloc-no-effect
  Scenario Outline: A PMIX_ALLOC_EXTEND that names no reservation is refused with PMIX_ERR_BAD_PARAM (<requester>)
    Given job "A" holds allocation "R" of node "s1"
    When <requester> requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_NODE_LIST | "s2" |
    Then the request is rejected with PMIX_ERR_BAD_PARAM
    And nothing changed

    Examples:
      | requester     |
      | job "A"       |
      | tool "T"      |
      # (the scheduler's row: in the Examples below, which need a scheduler that makes requests)

    @needs:scheduler-requests
    Examples: the scheduler asking
      | requester     |
      | the scheduler |

  @clause:NR.error.extend-not-found @clause:NR.reject.alloc-no-effect
  Scenario Outline: A PMIX_ALLOC_EXTEND naming an allocation that does not exist is refused with PMIX_ERR_NOT_FOUND (<named by>)
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_REQ_ID | "a-request-1" |
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | <alloc id> |
      | PMIX_ALLOC_REQ_ID    | <req id>   |
      | PMIX_ALLOC_NODE_LIST | "s2"       |
    Then the request is rejected with PMIX_ERR_NOT_FOUND
    And nothing changed

    @clause:NR.new-extend.extend-by-alloc-id
    Examples: by an unknown PMIX_ALLOC_ID
      | named by              | alloc id             | req id   |
      | unknown PMIX_ALLOC_ID | "no-such-allocation" | (absent) |

    @clause:NR.new-extend.extend-by-req-id @clause:SE.session.user-refid @clause:RF.id.requester-chosen
    Examples: by an unknown PMIX_ALLOC_REQ_ID
      | named by                  | alloc id | req id            |
      | unknown PMIX_ALLOC_REQ_ID | (absent) | "no-such-request" |

    @clause:PL.extend.alloc-id-first @interpretation:IP-EXTEND-TWO-NAMES
    Examples: by two ids, neither of which resolves
      | named by        | alloc id             | req id            |
      | two unknown ids | "no-such-allocation" | "no-such-request" |

  @clause:NR.error.extend-not-owner @clause:NR.new-extend.extend-owner-only @clause:NR.reject.alloc-no-effect
  Scenario Outline: A PMIX_ALLOC_EXTEND of a reservation the requester does not own is refused with PMIX_ERR_NO_PERMISSIONS (<requester>, by <named by>)
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_REQ_ID | "a-request-1" |
    When <requester> requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | <alloc id> |
      | PMIX_ALLOC_REQ_ID    | <req id>   |
      | PMIX_ALLOC_NODE_LIST | "s2"       |
    Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
    And nothing changed

    Examples:
      | requester | named by          | alloc id     | req id        |
      | job "B"   | PMIX_ALLOC_ID     | allocation R | (absent)      |
      | tool "T"  | PMIX_ALLOC_ID     | allocation R | (absent)      |

  @clause:NR.error.extend-not-owner @clause:NR.own.not-transitive @clause:NR.reject.alloc-no-effect @needs:PMIX_SPAWN_TARGET
  Scenario: A job spawned into one of its parent's reservations may not extend another of them
    Given job "A" holds allocation "R1" of node "s1"
    And job "A" holds allocation "R2" of node "s2"
    And job "A" spawns job "C" with 1 process and:
      | PMIX_SPAWN_TARGET | allocation R1 |
    When job "C" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation R2 |
      | PMIX_ALLOC_NODE_LIST | "s3"          |
    Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
    And nothing changed

  # The specification requires the *requester's* namespace to own the
  # reservation; the plan's prose for tools says "provided the target namespace
  # owns it". The specification wins: a tool that created a reservation for
  # another namespace is not an owner of it, and a PMIX_ALLOC_TARGET on the
  # EXTEND confers no authority (interpretation point IP-EXTEND-OWNER).
  @clause:NR.error.extend-not-owner @clause:NR.new-extend.extend-owner-only @clause:PL.extend.owner-set @clause:NR.reject.alloc-no-effect @interpretation:IP-EXTEND-OWNER @needs:PMIX_ALLOC_TARGET
  Scenario Outline: A tool that created a reservation for another namespace may not extend it (PMIX_ALLOC_TARGET on the EXTEND: <target>)
    Given tool "T" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_TARGET | job A |
    When tool "T" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation R |
      | PMIX_ALLOC_TARGET    | <target>     |
      | PMIX_ALLOC_NODE_LIST | "s2"         |
    Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
    And nothing changed

    Examples:
      | target   |
      | (absent) |
      | job A    |

  # ------------------------------------------- PMIX_ALLOC_SHARE on EXTEND ----

  # PMIX_ALLOC_SHARE sets an allocation's *initial* state; an EXTEND adds nodes
  # to an allocation that already has one. The new nodes take the existing
  # state, and the EXTEND checks apply unchanged (interpretation point
  # IP-EXTEND-SHARE; PRRTE today routes EXTEND + SHARE=true to the default
  # session and skips the checks).
  @clause:NR.new-extend.extend-adds-nodes @clause:NR.attr.share-true-default-session @interpretation:IP-EXTEND-SHARE @needs:PMIX_ALLOC_SHARE
  Scenario: PMIX_ALLOC_SHARE=true on an EXTEND of a reserved allocation still reserves the new node to it
    Given job "A" holds allocation "R" of node "s1"
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | allocation R |
      | PMIX_ALLOC_SHARE     | true         |
      | PMIX_ALLOC_NODE_LIST | "s2"         |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And nodes "s1,s2" are reserved to allocation "R"
    And job "B" may not spawn into allocation "R"

  @clause:NR.reject.alloc-no-effect @interpretation:IP-EXTEND-SHARE @needs:PMIX_ALLOC_SHARE
  Scenario Outline: PMIX_ALLOC_SHARE=true does not lift the EXTEND checks (<condition>)
    Given job "A" holds allocation "R" of node "s1"
    When <requester> requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID        | <alloc id> |
      | PMIX_ALLOC_SHARE     | true       |
      | PMIX_ALLOC_NODE_LIST | "s2"       |
    Then the request is rejected with <status>
    And nothing changed

    @clause:NR.error.extend-no-id
    Examples: names no reservation
      | condition        | requester | alloc id | status             |
      | no PMIX_ALLOC_ID | job "A"   | (absent) | PMIX_ERR_BAD_PARAM |

    @clause:NR.error.extend-not-found
    Examples: names an allocation that does not exist
      | condition             | requester | alloc id             | status             |
      | unknown PMIX_ALLOC_ID | job "A"   | "no-such-allocation" | PMIX_ERR_NOT_FOUND |

    @clause:NR.error.extend-not-owner
    Examples: names a reservation the requester does not own
      | condition                  | requester | alloc id     | status                  |
      | not owned by the requester | job "B"   | allocation R | PMIX_ERR_NO_PERMISSIONS |

  # ---------------------------------- PMIX_ALLOC_REQ_ID is the requester's own ----

  # A request id is "the requester's own request id": another requester may
  # choose the same string. It names only the requester's own request, so
  # neither can reach, or lose, the other's allocation through it
  # (interpretation point IP-REQ-ID-SCOPE).
  @clause:NR.new-extend.extend-by-req-id @interpretation:IP-REQ-ID-SCOPE
  Scenario: Two requesters that chose the same PMIX_ALLOC_REQ_ID each extend their own reservation by it
    Given job "A" holds allocation "RA" of node "s1" with:
      | PMIX_ALLOC_REQ_ID | "same" |
    And job "B" holds allocation "RB" of node "s2" with:
      | PMIX_ALLOC_REQ_ID | "same" |
    When job "B" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_REQ_ID    | "same" |
      | PMIX_ALLOC_NODE_LIST | "s3"   |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "RB"
    And node "s3" is reserved to allocation "RB"
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_REQ_ID    | "same" |
      | PMIX_ALLOC_NODE_LIST | "s4"   |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "RA"
    And node "s4" is reserved to allocation "RA"

  # Whether another requester's id names nothing (PMIX_ERR_NOT_FOUND) or names
  # the allocation it does not own (PMIX_ERR_NO_PERMISSIONS), the error table
  # refuses it, with no effect.
  @clause:NR.error.extend-not-found @clause:NR.error.extend-not-owner @clause:NR.reject.alloc-no-effect @interpretation:IP-REQ-ID-SCOPE
  Scenario Outline: A PMIX_ALLOC_EXTEND by another requester's PMIX_ALLOC_REQ_ID is refused (<requester>)
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_REQ_ID | "a-request-1" |
    When <requester> requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_REQ_ID    | "a-request-1" |
      | PMIX_ALLOC_NODE_LIST | "s2"          |
    Then the request is rejected with PMIX_ERR_NOT_FOUND or PMIX_ERR_NO_PERMISSIONS
    And nothing changed

    Examples:
      | requester |
      | job "B"   |
      | tool "T"  |

  # Found by mutation testing: no scenario named, in a new request's node
  # list, a node already reserved to another reservation.
  @clause:NR.def.reservation-withheld
  Scenario: A PMIX_ALLOC_NEW naming a node reserved to another reservation does not take it
    Given job "A" holds allocation "RA" of node "s1"
    When job "B" requests PMIX_ALLOC_NEW with:
      | PMIX_ALLOC_NODE_LIST | "s1" |
    Then node "s1" is reserved to allocation "RA"
