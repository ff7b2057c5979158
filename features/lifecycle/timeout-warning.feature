@area:warning
Feature: The allocation timeout warning is relayed to the requester, and only to it

  A scheduler often grants nodes for a bounded time: when the period runs
  out it reclaims them, and the jobs still running there are terminated. A
  requester that wants time to checkpoint, drain its work or ask for more
  adds PMIX_ALLOC_WARN_TIMEOUT (seconds before expiry) to its
  PMIX_ALLOC_NEW or PMIX_ALLOC_EXTEND. The runtime is only a relay here: it
  neither sets the timeout nor generates the warning. It passes
  PMIX_ALLOC_WARN_TIMEOUT on to the scheduler unchanged, and when the
  scheduler issues PMIX_ALLOC_TIMEOUT_WARNING it delivers that event to the
  process that requested the allocation and to no other: not to the other
  ranks of its job, not to the allocation's other owners, not to anyone
  else. The relayed warning carries the allocation's PMIX_ALLOC_ID, the
  PMIX_ALLOC_REQ_ID the requester chose (when it chose one), and
  PMIX_TIME_REMAINING as the scheduler sent it.

  The warning is advance notice and nothing more: by itself it changes no
  node, no job and no reservation. The requester may answer with a
  PMIX_ALLOC_EXTEND (optionally renewing PMIX_ALLOC_WARN_TIMEOUT); if it does
  not, the allocation expires and the scheduler reclaims its nodes, which
  leave the DVM with the processes on them. The attribute is advisory, and on
  a PMIx that lacks it no warning is requested or delivered, while expiry
  works as before.

  (Specification: "Attribute contract" (PMIX_ALLOC_WARN_TIMEOUT), "Allocation
  timeout warning", "Ending a reservation while jobs are still mapped",
  "Backward compatibility", conformance summary item 6; plan 8.2.2.7
  "Allocation timeout warning".)

  # The specification sends the warning to "the process that requested the
  # allocation" without saying which, once several processes have requested
  # it (NEW, then EXTENDs); the plan says the most recent requester, and the
  # request id stays the one supplied at creation (IP-WARNING-RECIPIENT).
  # Nothing says what becomes of a warning for an allocation that is unknown
  # or has ended, whose requester has gone, or that comes without
  # PMIX_TIME_REMAINING (IP-WARNING-UNDELIVERABLE).

  Background:
    Given a DVM whose startup nodes are "n1,n2" with 4 slots each
    And the scheduler can grant nodes "s1,s2,s3" with 4 slots each
    And tool "T" is connected
    And job "A" is running 2 processes, launched by tool "T"
    And job "B" is running 1 process, launched by tool "T"

  # ----------------------------------------------- asking for the warning ----

  @clause:NR.attr.warn-timeout-accepted @clause:NR.warn.forward-to-scheduler @clause:PL.warn.forward-unchanged @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:introspection
  Scenario Outline: PMIX_ALLOC_WARN_TIMEOUT on a PMIX_ALLOC_NEW is accepted and reaches the scheduler unchanged (<requester>, <seconds> s)
    When <requester> requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST    | "s1"      |
      | PMIX_ALLOC_WARN_TIMEOUT | <seconds> |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And node "s1" is reserved to allocation "R"
    And the scheduler was passed PMIX_ALLOC_WARN_TIMEOUT <seconds> for allocation "R"

    Examples:
      | requester | seconds    |
      | job "A"   | 600        |
      | tool "T"  | 1          |
      | job "A"   | 4294967295 |

  @clause:NR.attr.warn-timeout-accepted @clause:NR.warn.forward-to-scheduler @clause:PL.warn.forward-unchanged @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:introspection
  Scenario Outline: PMIX_ALLOC_WARN_TIMEOUT on a PMIX_ALLOC_EXTEND is accepted and reaches the scheduler unchanged (on the NEW: <on new>)
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_WARN_TIMEOUT | <on new> |
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID           | allocation R |
      | PMIX_ALLOC_NODE_LIST    | "s2"         |
      | PMIX_ALLOC_WARN_TIMEOUT | 120          |
    Then the request succeeds
    And nodes "s1,s2" are reserved to allocation "R"
    And the scheduler was passed PMIX_ALLOC_WARN_TIMEOUT 120 for allocation "R"

    Examples:
      | on new   |
      | 600      |
      | (absent) |

  @clause:NR.warn.relay-only @clause:NR.attr.warn-timeout-advisory @needs:PMIX_ALLOC_WARN_TIMEOUT
  Scenario: The runtime never warns on its own: without a warning from the scheduler, nobody is warned
    When job "A" requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST    | "s1" |
      | PMIX_ALLOC_WARN_TIMEOUT | 1    |
    Then the request succeeds
    And no process receives PMIX_ALLOC_TIMEOUT_WARNING
    And node "s1" is reserved to allocation "R"

  # --------------------------------------------------- who is warned ----

  @clause:NR.warn.directed @clause:NR.conformance.6 @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:PMIX_SPAWN_TARGET @needs:scheduler-warning
  Scenario Outline: The warning goes only to the requesting process, not to its job's other ranks, the reservation's other owners or anyone else (<requester> asked)
    Given <requester> holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_WARN_TIMEOUT | 120 |
    And job "A" spawns job "C" with 1 process and:
      | PMIX_SPAWN_TARGET | allocation R |
    And the request succeeds
    When the scheduler warns that allocation "R" expires in 120 seconds
    Then <requester> receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    And <other rank> receives no event
    And job "C" receives no event
    And job "B" receives no event
    And tool "T" receives no event

    # Job C was spawned into the reservation, which makes it an owner; it did
    # not request the allocation.
    Examples:
      | requester        | other rank       |
      | job "A" rank 0   | job "A" rank 1   |
      | job "A" rank 1   | job "A" rank 0   |

  # "The process that requested the allocation" is the whole of the rule:
  # where that process runs is not part of it. A runtime that raises the
  # warning on its head node's own server and keeps it there reaches tools
  # (they connect to the head node) and the processes the head node runs, and
  # nobody else; the rows put the requester on the second startup node and on
  # a node the DVM gained, as well as wherever job A's rank 1 was mapped. Job
  # C runs on s3 because it was spawned into allocation H, which holds s3
  # alone; job D on n2 because it was spawned there by name.
  @clause:NR.warn.directed @clause:NR.conformance.6 @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:PMIX_SPAWN_TARGET @needs:scheduler-warning
  Scenario Outline: The warning reaches the requesting process wherever it runs (<requester>, on <where>)
    Given tool "T" holds allocation "H" of node "s3"
    And tool "T" spawns job "C" with 1 process and:
      | PMIX_SPAWN_TARGET | allocation H |
    And the request succeeds
    And tool "T" spawns job "D" with 1 process on host "n2"
    And the request succeeds
    And every process of job "C" is on node "s3"
    And every process of job "D" is on node "n2"
    And <requester> holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_WARN_TIMEOUT | 120 |
    When the scheduler warns that allocation "R" expires in 120 seconds
    Then <requester> receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    And the warning carries:
      | PMIX_ALLOC_ID       | allocation R |
      | PMIX_TIME_REMAINING | 120          |
    And job "B" receives no event

    Examples:
      | requester      | where                                |
      | job "A" rank 1 | whichever startup node job A runs on |
      | job "D"        | n2, the second startup node          |
      | job "C"        | s3, a node the DVM gained            |

  @clause:NR.warn.directed @clause:NR.warn.payload-alloc-id @clause:NR.conformance.6 @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:scheduler-warning
  Scenario: A tool that requested an allocation receives its warning
    Given tool "T" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_WARN_TIMEOUT | 60 |
    When the scheduler warns that allocation "R" expires in 60 seconds
    Then tool "T" receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    And job "A" receives no event
    And job "A" rank 1 receives no event
    And job "B" receives no event
    And the warning carries:
      | PMIX_ALLOC_ID       | allocation R |
      | PMIX_TIME_REMAINING | 60           |

  @clause:NR.warn.directed @clause:NR.conformance.6 @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:PMIX_ALLOC_TARGET @needs:scheduler-warning
  Scenario: A tool that reserved nodes for a job is warned, not the job that owns them
    Given tool "T" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_TARGET       | job A |
      | PMIX_ALLOC_WARN_TIMEOUT | 60    |
    When the scheduler warns that allocation "R" expires in 60 seconds
    Then tool "T" receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    And job "A" receives no event
    And job "A" rank 1 receives no event
    And job "B" receives no event

  @clause:PL.warn.requestor-refreshed @clause:NR.warn.directed @clause:NR.warn.payload-req-id @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:PMIX_SPAWN_TARGET @interpretation:IP-WARNING-RECIPIENT @interpretation:IP-EXTEND-TWO-NAMES @needs:scheduler-warning
  Scenario Outline: After another owner extends the allocation, the warning goes to that latest requester and carries <which> request id (<extender> extended)
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_REQ_ID       | "first" |
      | PMIX_ALLOC_WARN_TIMEOUT | 300     |
    And job "A" spawns job "C" with 1 process and:
      | PMIX_SPAWN_TARGET | allocation R |
    And the request succeeds
    When <extender> requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID           | allocation R |
      | PMIX_ALLOC_REQ_ID       | "second"     |
      | PMIX_ALLOC_NODE_LIST    | "s2"         |
      | PMIX_ALLOC_WARN_TIMEOUT | 120          |
    Then the request succeeds
    When the scheduler warns that allocation "R" expires in 120 seconds
    Then <extender> receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    And job "A" rank 0 receives no event
    And <bystander> receives no event
    And the warning carries:
      | PMIX_ALLOC_ID       | allocation R |
      | PMIX_ALLOC_REQ_ID   | <req id>     |
      | PMIX_TIME_REMAINING | 120          |

    # The EXTEND names R by its PMIX_ALLOC_ID and carries a request id of its
    # own, which names nothing; R is the reservation extended
    # (IP-EXTEND-TWO-NAMES). Job C owns R because it was spawned into it.
    # Which request id the warning carries is a reading (IP-READING-WARNING-REQ-ID);
    # that it carries one of the two holds under both, whatever the implementation declares.
    Examples: whichever the reading
      | extender       | bystander      | which                          | req id                   |
      | job "A" rank 1 | job "C"        | the creation's or the latest's | one of "first", "second" |
      | job "C"        | job "A" rank 1 | the creation's or the latest's | one of "first", "second" |

    @reading:warning-request-id=creation
    Examples: the creating request's id
      | extender       | bystander      | which          | req id  |
      | job "A" rank 1 | job "C"        | the creation's | "first" |
      | job "C"        | job "A" rank 1 | the creation's | "first" |

    @reading:warning-request-id=latest
    Examples: the latest request's id
      | extender       | bystander      | which         | req id   |
      | job "A" rank 1 | job "C"        | the latest    | "second" |
      | job "C"        | job "A" rank 1 | the latest    | "second" |

  @clause:NR.warn.directed @clause:NR.reject.alloc-no-effect @clause:NR.error.extend-not-owner @needs:PMIX_ALLOC_WARN_TIMEOUT @interpretation:IP-WARNING-RECIPIENT @needs:scheduler-warning
  Scenario: A refused PMIX_ALLOC_EXTEND does not make its requester the recipient of the warning
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_WARN_TIMEOUT | 300 |
    When job "B" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID           | allocation R |
      | PMIX_ALLOC_NODE_LIST    | "s2"         |
      | PMIX_ALLOC_WARN_TIMEOUT | 120          |
    Then the request is rejected with PMIX_ERR_NO_PERMISSIONS
    When the scheduler warns that allocation "R" expires in 300 seconds
    Then job "A" receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    And job "B" receives no event

  @clause:NR.warn.directed @clause:NR.warn.payload-alloc-id @clause:NR.warn.no-state-change @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:PMIX_ALLOC_SHARE @interpretation:IP-SHARED-ALLOCATION-ID @needs:scheduler-warning
  Scenario: A shared allocation is warned about like a reservation, and its nodes stay in the default session
    Given job "A" requests PMIX_ALLOC_NEW for allocation "S" with:
      | PMIX_ALLOC_NODE_LIST    | "s1" |
      | PMIX_ALLOC_SHARE        | true |
      | PMIX_ALLOC_WARN_TIMEOUT | 60   |
    And the request succeeds
    When the scheduler warns that allocation "S" expires in 60 seconds
    Then job "A" receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    And job "B" receives no event
    And tool "T" receives no event
    And the warning carries:
      | PMIX_ALLOC_ID | allocation S |
    And nothing but events changed
    And node "s1" is in the default session

  # -------------------------------------------------- what it carries ----

  @clause:NR.warn.payload-alloc-id @clause:NR.warn.payload-req-id @clause:NR.warn.payload-time-remaining @clause:PL.warn.payload-unchanged @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:scheduler-warning
  Scenario Outline: The warning carries the allocation id, the request id the requester chose, and the time remaining the scheduler sent (PMIX_ALLOC_REQ_ID <req id>)
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_REQ_ID       | <req id> |
      | PMIX_ALLOC_WARN_TIMEOUT | 300      |
    When the scheduler warns that allocation "R" expires in 287 seconds
    Then job "A" receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    And the warning carries:
      | PMIX_ALLOC_ID       | allocation R |
      | PMIX_ALLOC_REQ_ID   | <req id>     |
      | PMIX_TIME_REMAINING | 287          |

    # "(absent)": a request that chose no id gets none back in its warning.
    # PMIX_TIME_REMAINING is what the scheduler said, not the requested 300.
    Examples:
      | req id   |
      | "ckpt-7" |
      | (absent) |

  @clause:PL.warn.payload-unchanged @clause:NR.warn.payload-alloc-id @clause:NR.warn.payload-time-remaining @clause:NR.warn.directed @needs:PMIX_ALLOC_WARN_TIMEOUT @interpretation:IP-WARNING-UNDELIVERABLE @needs:scheduler-warning
  Scenario: A warning the scheduler sends without the time remaining is relayed without it
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_REQ_ID       | "ckpt-8" |
      | PMIX_ALLOC_WARN_TIMEOUT | 300      |
    When the scheduler warns about allocation "R" without saying how long remains
    Then job "A" receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    And the warning carries:
      | PMIX_ALLOC_ID       | allocation R |
      | PMIX_ALLOC_REQ_ID   | "ckpt-8"     |
      | PMIX_TIME_REMAINING | (absent)     |

  # ---------------------------------------- what it changes: nothing ----

  @clause:NR.warn.no-state-change @clause:NR.conformance.6 @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:PMIX_SPAWN_TARGET @needs:scheduler-warning
  Scenario: The warning by itself changes nothing: the nodes stay reserved and the jobs on them keep running
    Given job "A" holds allocation "R" of nodes "s1,s2" with:
      | PMIX_ALLOC_WARN_TIMEOUT | 300 |
    And job "A" spawns job "C" with 2 processes and:
      | PMIX_SPAWN_TARGET | allocation R |
    And the request succeeds
    When the scheduler warns that allocation "R" expires in 300 seconds
    Then job "A" receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    And nothing but events changed
    And nodes "s1,s2" are reserved to allocation "R"
    And every process of job "C" is on nodes "s1,s2"
    And job "A" may spawn into allocation "R"
    And job "B" may not spawn into allocation "R"

  @clause:NR.warn.extend-accepted @clause:NR.warn.directed @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:scheduler-warning
  Scenario Outline: The warned requester may answer with PMIX_ALLOC_EXTEND, and is warned again later (renewing PMIX_ALLOC_WARN_TIMEOUT: <renewal>)
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_WARN_TIMEOUT | 300 |
    When the scheduler warns that allocation "R" expires in 300 seconds
    Then job "A" receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    When job "A" requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID           | allocation R |
      | PMIX_ALLOC_NODE_LIST    | "s2"         |
      | PMIX_ALLOC_WARN_TIMEOUT | <renewal>    |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And nodes "s1,s2" are reserved to allocation "R"
    When the scheduler warns that allocation "R" expires in 200 seconds
    Then job "A" receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    And job "A" rank 1 receives no event
    And the warning carries:
      | PMIX_ALLOC_ID       | allocation R |
      | PMIX_TIME_REMAINING | 200          |

    Examples:
      | renewal  |
      | 300      |
      | (absent) |

  @clause:NR.warn.expiry-reclaims @clause:NR.trigger.scheduler-terminate @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:PMIX_SPAWN_TARGET @interpretation:IP-DEPARTING-PROCESSES @needs:scheduler-warning @needs:scheduler-control
  Scenario: An allocation not extended after the warning expires: the scheduler reclaims its nodes and the processes on them are terminated
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_WARN_TIMEOUT | 60 |
    And job "A" spawns job "C" with 2 processes and:
      | PMIX_SPAWN_TARGET | allocation R |
    And the request succeeds
    And every process of job "C" is on node "s1"
    When the scheduler warns that allocation "R" expires in 60 seconds
    Then job "A" receives exactly one PMIX_ALLOC_TIMEOUT_WARNING
    When allocation "R" expires and the scheduler reclaims it
    Then node "s1" is not in the DVM
    And no process of any job is running on node "s1"
    And job "C" has ended

  # ------------------------------------ warnings that reach no one ----

  @clause:NR.warn.directed @clause:NR.warn.no-state-change @needs:PMIX_ALLOC_WARN_TIMEOUT @interpretation:IP-WARNING-UNDELIVERABLE @needs:scheduler-warning
  Scenario: A warning about an allocation the runtime does not know is dropped
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_WARN_TIMEOUT | 60 |
    When the scheduler warns about an allocation "no-such-allocation" it never granted
    Then no process receives any event
    And nothing but events changed

  @clause:NR.warn.directed @clause:NR.warn.no-state-change @clause:NR.trigger.owner-release @needs:PMIX_ALLOC_WARN_TIMEOUT @interpretation:IP-WARNING-UNDELIVERABLE @needs:scheduler-warning
  Scenario: A warning about an allocation already released is dropped
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_WARN_TIMEOUT | 60 |
    And job "A" requests PMIX_ALLOC_RELEASE with:
      | PMIX_ALLOC_ID | allocation R |
    And the request succeeds
    When the scheduler warns that allocation "R" expires in 60 seconds
    Then no process receives any event
    And nothing but events changed

  # Tool "U" launched no job, so its leaving ends nothing but itself. The
  # reservation it made for job A outlives it.
  @clause:NR.warn.directed @clause:NR.warn.no-state-change @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:PMIX_ALLOC_TARGET @interpretation:IP-WARNING-UNDELIVERABLE @needs:scheduler-warning
  Scenario: A warning whose requesting tool has disconnected is dropped, even though the reservation lives on
    Given tool "U" is connected
    And tool "U" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_TARGET       | job A |
      | PMIX_ALLOC_WARN_TIMEOUT | 60    |
    And tool "U" disconnects
    And node "s1" is reserved to allocation "R"
    When the scheduler warns that allocation "R" expires in 60 seconds
    Then no process receives any event
    And nothing but events changed

  # With PMIX_ALLOC_INHERIT_CHILD the reservation outlives its owning
  # namespace while a job spawned into it still runs.
  @clause:NR.warn.directed @clause:NR.warn.no-state-change @needs:PMIX_ALLOC_WARN_TIMEOUT @needs:PMIX_ALLOC_INHERITANCE @needs:PMIX_SPAWN_TARGET @interpretation:IP-WARNING-UNDELIVERABLE @needs:scheduler-warning
  Scenario: A warning whose requesting job has terminated is dropped, even though the reservation lives on
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_INHERITANCE  | PMIX_ALLOC_INHERIT_CHILD |
      | PMIX_ALLOC_WARN_TIMEOUT | 60                       |
    And job "A" spawns job "C" with 1 process and:
      | PMIX_SPAWN_TARGET | allocation R |
    And the request succeeds
    And job "A" terminates
    And node "s1" is reserved to allocation "R"
    When the scheduler warns that allocation "R" expires in 60 seconds
    Then no process receives any event
    And nothing but events changed

  # ------------------------------------- a PMIx without the attribute ----

  # The attribute is advisory even where it is understood; where it is not,
  # no warning is requested, and the request is otherwise served as usual.
  @without:PMIX_ALLOC_WARN_TIMEOUT @clause:NR.compat.no-warn-key @clause:NR.compat.runs-without-keys @clause:NR.conformance.7
  Scenario Outline: Without PMIX_ALLOC_WARN_TIMEOUT, a request carrying it is not understood and still succeeds (<requester>)
    When <requester> requests PMIX_ALLOC_NEW for allocation "R" with:
      | PMIX_ALLOC_NODE_LIST    | "s1" |
      | PMIX_ALLOC_WARN_TIMEOUT | 300  |
    Then the request succeeds
    And the response carries the PMIX_ALLOC_ID of allocation "R"
    And node "s1" is reserved to allocation "R"
    When <requester> requests PMIX_ALLOC_EXTEND with:
      | PMIX_ALLOC_ID           | allocation R |
      | PMIX_ALLOC_NODE_LIST    | "s2"         |
      | PMIX_ALLOC_WARN_TIMEOUT | 300          |
    Then the request succeeds
    And nodes "s1,s2" are reserved to allocation "R"

    Examples:
      | requester |
      | job "A"   |
      | tool "T"  |

  @without:PMIX_ALLOC_WARN_TIMEOUT @clause:NR.compat.no-warn-key @clause:NR.conformance.7 @needs:scheduler-warning
  Scenario: Without PMIX_ALLOC_WARN_TIMEOUT, no warning is delivered even when the scheduler warns
    Given job "A" holds allocation "R" of node "s1" with:
      | PMIX_ALLOC_WARN_TIMEOUT | 300 |
    When the scheduler warns that allocation "R" expires in 300 seconds
    Then no process receives PMIX_ALLOC_TIMEOUT_WARNING
    And nothing but events changed

  @without:PMIX_ALLOC_WARN_TIMEOUT @clause:NR.compat.no-warn-key @clause:NR.trigger.scheduler-terminate @needs:PMIX_SPAWN_TARGET @interpretation:IP-DEPARTING-PROCESSES @needs:scheduler-control
  Scenario: Without PMIX_ALLOC_WARN_TIMEOUT, an allocation still expires and is reclaimed by the scheduler, unwarned
    Given job "A" holds allocation "R" of node "s1"
    And job "A" spawns job "C" with 2 processes and:
      | PMIX_SPAWN_TARGET | allocation R |
    And the request succeeds
    When allocation "R" expires and the scheduler reclaims it
    Then no process receives PMIX_ALLOC_TIMEOUT_WARNING
    And node "s1" is not in the DVM
    And no process of any job is running on node "s1"
    And job "C" has ended
